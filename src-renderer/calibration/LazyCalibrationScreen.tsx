import { lazy, Suspense } from 'react';

// chart.js is loaded with the screen that draws with it, so the window's first load never carries it.
const Screen = lazy(() => import('./CalibrationScreen').then((m) => ({ default: m.CalibrationScreen })));

export function LazyCalibrationScreen() {
  return (
    <Suspense
      fallback={
        <section className="screen" aria-busy="true" aria-label="Calibration">
          <p className="muted pad">Opening Calibration…</p>
        </section>
      }
    >
      <Screen />
    </Suspense>
  );
}
