/**
 * In VS Code for the Web (code-server), a link to http://127.0.0.1:<port> opens through the web
 * host's proxy (code-server's /proxy/<port>/), which forwards the browser's Host header: the name of
 * the web host. The sandbox refuses names other than loopback ones (DNS rebinding), so that name is
 * passed to it as allowed.
 */
import { isLoopbackHost } from '../../emulator/hostCheck';

/**
 * The host name the editor's browser uses for the sandbox's port, when it is not a loopback name.
 * `toExternal` is vscode.env.asExternalUri as a string function. Port 0 (any free port) is not known
 * before the start, so nothing is learned for it.
 */
export async function proxyHostNames(port: number, toExternal: (url: string) => Promise<string>): Promise<string[]> {
	if (port === 0) return [];
	const external = new URL(await toExternal(`http://127.0.0.1:${port}/`));
	return isLoopbackHost(external.hostname) ? [] : [external.hostname];
}
