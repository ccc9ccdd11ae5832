import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import { APP_SCHEME, resolveAppAsset } from './protocol';

/** Before `ready`: app:// behaves like https (secure context, fetch, workers) for the renderer only. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);
}

/** After `ready`: answer app:// from the built renderer folder, with the CSP as a header. */
export function serveAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const asset = resolveAppAsset(request.method, request.url, rendererDir);
    if (asset.status !== 200) return new Response(asset.reason, { status: asset.status, headers: asset.headers });
    const body = request.method === 'HEAD' ? null : await readFile(asset.file);
    return new Response(body, { status: 200, headers: asset.headers });
  });
}
