import { type ReactNode, Suspense, useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useProcedure } from '../api/hooks';
import { useDeskSession } from '../desk/session';
import { routeTask, taskRoute } from '../tasks/model';
import { routeSkill, skillRoute } from '../skills/model';
import { routeProposal } from '../proposals/model';
import { recordPageOf } from '../records/route';
import { lineageRouteOf } from '../lineage/model';
import { CommandPalette } from '../palette';
import { HomeScreen } from '../home';
import { lazyScreen, ScreenLoading } from './lazy-screen';
import { ComingSoon } from './ComingSoon';
import { ErrorBoundary } from './ErrorBoundary';
import { Toasts } from './Toasts';
import { DemoBanner } from './DemoBanner';
import { UnsavedPrompt } from './useUnsavedGuard';
import { Sidebar } from './Sidebar';
import { StatusBar } from './StatusBar';
import { useThemeSetting } from './theme';
import { useRoute } from './useRoute';
import { screenInfo } from './screens';

// Every screen but Home is its own chunk, fetched when first opened (route helpers above come from
// the features' model files, not their index, so no screen is pulled into the first load).
const SettingsScreen = lazyScreen(() => import('../settings/SettingsScreen').then((m) => m.SettingsScreen));
const MemoryScreen = lazyScreen(() => import('../memory/MemoryScreen').then((m) => m.MemoryScreen));
const ChatScreen = lazyScreen(() => import('../chat/ChatScreen').then((m) => m.ChatScreen));
const TasksScreen = lazyScreen(() => import('../tasks/TasksScreen').then((m) => m.TasksScreen));
const PortfolioScreen = lazyScreen(() => import('../portfolio/PortfolioScreen').then((m) => m.PortfolioScreen));
const SkillsScreen = lazyScreen(() => import('../skills/SkillsScreen').then((m) => m.SkillsScreen));
const McpScreen = lazyScreen(() => import('../mcp/McpScreen').then((m) => m.McpScreen));
const DataScreen = lazyScreen(() => import('../data/DataScreen').then((m) => m.DataScreen));
const BuildsScreen = lazyScreen(() => import('../builds/BuildsScreen').then((m) => m.BuildsScreen));
const ProposalsScreen = lazyScreen(() => import('../proposals/ProposalsScreen').then((m) => m.ProposalsScreen));
const CalibrationScreen = lazyScreen(() => import('../calibration/CalibrationScreen').then((m) => m.CalibrationScreen));
const ScheduleScreen = lazyScreen(() => import('../schedule/ScheduleScreen').then((m) => m.ScheduleScreen));
const DeskScreen = lazyScreen(() => import('../desk/DeskScreen').then((m) => m.DeskScreen));
const ContractsScreen = lazyScreen(() => import('../contracts/ContractsScreen').then((m) => m.ContractsScreen));
const ViewPage = lazyScreen(() => import('../records/ViewPage').then((m) => m.ViewPage));
const ExpressionPage = lazyScreen(() => import('../records/ExpressionPage').then((m) => m.ExpressionPage));
const LineagePage = lazyScreen(() => import('../lineage/LineagePage').then((m) => m.LineagePage));

/**
 * On a desk (forge serve --db on a database made a desk) nothing but the sign-in form is shown until
 * a person signs in: every other call needs their session, so the workbench would be a wall of
 * refusals. Signing out (or a session ended elsewhere) comes back here, with everything the last
 * person's calls had cached dropped, so the next person at this machine never sees it.
 */
export function App() {
  const status = useProcedure('desk/status', {}, { staleTime: Number.POSITIVE_INFINITY, retry: false });
  const signedIn = useDeskSession((s) => s.current !== null);
  const queries = useQueryClient();
  // Another person (or nobody) from now on: forget every answer but the desk's status, before
  // anything renders for them (zustand calls this inside the sign-in or sign-out itself).
  useEffect(
    () =>
      useDeskSession.subscribe((now, before) => {
        if (now.current?.session !== before.current?.session) queries.removeQueries({ predicate: (q) => q.queryKey[0] !== 'desk/status' });
      }),
    [queries],
  );
  // Unknown for the moment it takes to ask; an older server without desk/status is a PM's own workbench.
  if (status.isPending) return <ScreenLoading label="Forge" />;
  if (status.data?.desk === true && !signedIn) return <DeskGate />;
  return <Workbench />;
}

/** The desk's sign-in, alone: the Desk screen shows the form while nobody is signed in. */
function DeskGate() {
  useThemeSetting('system');
  return (
    <div className="desk-gate" data-testid="desk-gate">
      <main className="main" id="main" tabIndex={-1} aria-label={screenInfo.desk.label}>
        <Suspense fallback={<ScreenLoading label={screenInfo.desk.label} />}>
          <DeskScreen />
        </Suspense>
      </main>
    </div>
  );
}

function Workbench() {
  const [route, go] = useRoute();
  const settings = useProcedure('settings/get', {});
  useThemeSetting(settings.data?.settings.theme);

  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    document.title = `${screenInfo[route.screen].label} — Forge`;
  }, [route.screen]);

  let screen: ReactNode;
  // `#/views/V-001` / `#/expressions/E-004` (a bare id) open the record's full page.
  const page = recordPageOf(route);
  // `#/expressions/E-004/lineage`: everything that shaped E-004 (src-renderer/lineage).
  const lineageId = lineageRouteOf(route);
  switch (lineageId ? 'lineage' : page ? 'record-page' : route.screen) {
    case 'lineage':
      screen = <LineagePage id={lineageId ?? ''} />;
      break;
    case 'record-page':
      screen = page?.kind === 'view' ? <ViewPage id={page.id} /> : <ExpressionPage id={page?.id ?? ''} />;
      break;
    case 'home':
      screen = <HomeScreen />;
      break;
    case 'chat':
      screen = (
        <section className="screen" data-testid="screen-chat" aria-label="Chat">
          <ChatScreen />
        </section>
      );
      break;
    case 'settings':
      screen = <SettingsScreen />;
      break;
    case 'views':
      screen = (
        <MemoryScreen
          key="views"
          screen="views"
          folder="/memory/views/"
          selected={route.rest[0] ?? null}
          onSelect={(name) => go('views', name ? [name] : [])}
        />
      );
      break;
    case 'expressions':
      screen = (
        <MemoryScreen
          key="expressions"
          screen="expressions"
          folder="/memory/expressions/"
          selected={route.rest[0] ?? null}
          onSelect={(name) => go('expressions', name ? [name] : [])}
        />
      );
      break;
    case 'tasks':
      screen = <TasksScreen selected={routeTask(route.rest)} onSelect={(t) => go('tasks', t ? taskRoute(t) : [])} />;
      break;
    case 'portfolio':
      screen = <PortfolioScreen />;
      break;
    case 'skills':
      screen = <SkillsScreen selected={routeSkill(route.rest)} onSelect={(sel) => go('skills', skillRoute(sel))} />;
      break;
    case 'data':
      screen = <DataScreen />;
      break;
    case 'mcp':
      screen = <McpScreen />;
      break;
    case 'builds':
      screen = <BuildsScreen selected={route.rest[0] ?? null} onSelect={(id) => go('builds', id ? [id] : [])} />;
      break;
    case 'proposals':
      screen = <ProposalsScreen selected={routeProposal(route.rest)} onSelect={(id) => go('proposals', id ? [id] : [])} />;
      break;
    case 'calibration':
      screen = <CalibrationScreen />;
      break;
    case 'schedule':
      screen = <ScheduleScreen />;
      break;
    case 'desk':
      screen = <DeskScreen />;
      break;
    case 'contracts':
      screen = <ContractsScreen selected={route.rest[0] ?? null} onSelect={(name) => go('contracts', name ? [name] : [])} />;
      break;
    default:
      screen = <ComingSoon screen={route.screen} />;
  }

  return (
    <div className="app-frame" data-testid="app-frame">
      {/* biome-ignore lint/a11y/useValidAnchor: routes live in the URL hash, so following #main would navigate; the skip link moves focus itself and stays a link, which is what a skip link is. */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <Sidebar current={route.screen} displayName={settings.data?.settings.displayName} />
      <main className="main" id="main" ref={main} tabIndex={-1} aria-label={screenInfo[route.screen].label}>
        <DemoBanner />
        <ErrorBoundary resetKey={route.screen}>
          <Suspense fallback={<ScreenLoading label={screenInfo[route.screen].label} />}>{screen}</Suspense>
        </ErrorBoundary>
      </main>
      <StatusBar />
      <Toasts />
      <UnsavedPrompt />
      <CommandPalette go={go} />
    </div>
  );
}
