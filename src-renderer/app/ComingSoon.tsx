import type { Screen } from './routes';
import { screenInfo } from './screens';
import { Icon } from './Icon';

/** An honest placeholder: says what the screen will do, shows no made-up data. */
export function ComingSoon(props: { screen: Screen }) {
  const info = screenInfo[props.screen];
  return (
    <section className="screen" data-testid={`screen-${props.screen}`} aria-labelledby={`title-${props.screen}`}>
      <header className="screen-header">
        <h1 id={`title-${props.screen}`}>{info.label}</h1>
        <p className="screen-purpose">{info.purpose}</p>
      </header>
      <div className="empty-state">
        <div className="empty-icon">
          <Icon name={props.screen} size={34} />
        </div>
        <h2>Coming in a later release</h2>
        <p>This screen is not built yet. When it is, it will show:</p>
        <ul>
          {info.will.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
