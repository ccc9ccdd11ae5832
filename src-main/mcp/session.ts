/**
 * Which project and build a client is working on, so project tools can omit the ids. One per
 * connected client (each MCP connection gets its own), never a process-wide singleton.
 */
export interface SessionState {
  project_id?: string;
  build_id?: string;
  user_id?: string;
  set_at?: string;
}

export class McpSession {
  private state: SessionState = {};

  set(input: { project_id: string; build_id?: string; user_id?: string }): SessionState {
    this.state = { ...input, set_at: new Date().toISOString() };
    return this.get();
  }

  clear(): SessionState {
    const before = this.state;
    this.state = {};
    return before;
  }

  get(): SessionState {
    return { ...this.state };
  }
}
