import { type ReactNode, useEffect, useRef } from 'react';
import { useProcedure } from '../api/hooks';
import { SettingsScreen } from '../settings/SettingsScreen';
import { MemoryScreen } from '../memory/MemoryScreen';
import { ChatScreen } from '../chat';
import { TasksScreen, routeTask, taskRoute } from '../tasks';
import { PortfolioScreen } from '../portfolio';
import { SkillsScreen, routeSkill, skillRoute } from '../skills';
import { McpScreen } from '../mcp';
import { DataScreen } from '../data';
import { BuildsScreen } from '../builds';
import { ProposalsScreen, routeProposal } from '../proposals';
import { CalibrationScreen } from '../calibration';
import { ScheduleScreen } from '../schedule';
import { CommandPalette } from '../palette';
import { HomeScreen } from '../home';
import { ComingSoon } from './ComingSoon';
import { ErrorBoundary } from './ErrorBoundary';
import { Notices } from './Notices';
import { Sidebar } from './Sidebar';
import { StatusBar } from './StatusBar';
import { useThemeSetting } from './theme';
import { useRoute } from './useRoute';
import { screenInfo } from './screens';

export function App() {
  const [route, go] = useRoute();
  const settings = useProcedure('settings/get', {});
  useThemeSetting(settings.data?.settings.theme);

  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    document.title = `${screenInfo[route.screen].label} — Forge`;
  }, [route.screen]);

  let screen: ReactNode;
  switch (route.screen) {
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
        <ErrorBoundary resetKey={route.screen}>{screen}</ErrorBoundary>
      </main>
      <StatusBar />
      <Notices />
      <CommandPalette go={go} />
    </div>
  );
}
