// Vite's `?worker` imports (the renderer's tsconfig loads no ambient types, so this one is declared here).
declare module '*?worker' {
  const WorkerConstructor: { new (options?: { name?: string }): Worker };
  export default WorkerConstructor;
}
