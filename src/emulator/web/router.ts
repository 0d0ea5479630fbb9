/**
 * Routes the sandbox's web pages ahead of the SOAP/HTTP pipeline: /complete-posting/<token>,
 * /login/<token> and /web/*. Everything else goes to the pipeline.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleCompletion } from './completion';
import { handleLogin, handleWeb, SessionStore } from './account';
import type { WebContext } from './context';
import { sendMessage } from './layout';

export interface WebRouter {
	/** True when the path belongs to the web pages. */
	matches(path: string): boolean;
	handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
	/** Signs everybody out (reset). */
	clearSessions(): void;
}

const PREFIX = /^\/(complete-posting|login|web)(\/|$)/i;

/** The token segment after the prefix, decoded; '' when absent or malformed. */
function tokenOf(path: string): string {
	const segment = path.split('/')[2] ?? '';
	try {
		return /^[A-Za-z0-9_-]{1,200}$/.test(segment) ? decodeURIComponent(segment) : '';
	} catch {
		return '';
	}
}

export function createWebRouter(context: WebContext): WebRouter {
	const sessions = new SessionStore();
	return {
		matches: (path) => PREFIX.test(path),
		async handle(req, res) {
			const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
			const path = url.pathname;
			const section = path.split('/')[1]?.toLowerCase();
			try {
				if (section === 'complete-posting') return await handleCompletion(req, res, context, tokenOf(path));
				if (section === 'login') return handleLogin(req, res, context, sessions, tokenOf(path), path);
				return handleWeb(req, res, context, sessions, path, url.searchParams);
			} catch (error) {
				if (!res.headersSent) {
					sendMessage(
						res,
						500,
						'Something went wrong',
						'The sandbox could not show this page. See its log for details.',
					);
				} else res.destroy();
				throw error;
			}
		},
		clearSessions: () => sessions.clear(),
	};
}
