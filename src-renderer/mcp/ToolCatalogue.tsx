import { annotationBadges, formatMs, groupTools, type McpTool } from './model';

/** Every tool attached clients see (tools/list), grouped by what it is for, with its annotations and its calls so far. */
export function ToolCatalogue(props: { tools: McpTool[] }) {
  const groups = groupTools(props.tools);
  return (
    <article className="card mcp-tools" data-testid="mcp-tools" aria-labelledby="mcp-tools-title">
      <header className="mcp-card-head">
        <h2 id="mcp-tools-title">Tools</h2>
        <span className="muted">{props.tools.length} offered to attached clients</span>
      </header>
      <p className="muted mcp-lead">
        What an IDE sees when it lists tools. The badges are the hints each tool declares: clients use them to decide what needs your confirmation.
      </p>
      {/* A fixed-height panel: forty-odd tools must not make the screen (or a screenshot) thousands of pixels tall. */}
      <div
        className="mcp-tools-scroll"
        role="region"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus so it can be scrolled without a mouse (WCAG 2.1.1).
        tabIndex={0}
        aria-label="Tools offered to attached clients, by family"
        data-testid="mcp-tools-scroll"
      >
        <table className="mcp-table mcp-tool-table">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Hints</th>
              <th scope="col" className="num">
                Calls
              </th>
              <th scope="col" className="num">
                Errors
              </th>
              <th scope="col" className="num">
                Average
              </th>
            </tr>
          </thead>
          {groups.map((g) => (
            <tbody key={g.key} data-testid={`mcp-family-${g.key}`}>
              <tr className="mcp-family">
                <th scope="rowgroup" colSpan={5}>
                  {g.label}
                </th>
              </tr>
              {g.tools.map((t) => (
                <tr key={t.name} data-testid="mcp-tool" data-name={t.name} data-read-only={t.annotations.readOnlyHint ? 'true' : 'false'}>
                  <td className="mcp-tool-cell">
                    <code className="mcp-tool-name">{t.name}</code>
                    <span className="mcp-tool-description">{t.description}</span>
                  </td>
                  <td className="mcp-badges">
                    {annotationBadges(t.annotations).map((b) => (
                      <span key={b.key} className={`mcp-badge tone-${b.tone}`} title={b.title} data-testid={`mcp-badge-${b.key}`}>
                        {b.label}
                      </span>
                    ))}
                  </td>
                  <td className="num" data-testid="mcp-tool-calls">
                    {t.calls}
                  </td>
                  <td className={`num${t.errors > 0 ? ' mcp-has-errors' : ''}`}>{t.errors}</td>
                  <td className="num">{t.calls > 0 ? formatMs(t.avgMs) : '—'}</td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      </div>
    </article>
  );
}
