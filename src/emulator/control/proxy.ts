/**
 * The inspecting proxy's control routes: where it runs and to which upstream, start it (or move it to
 * another upstream), stop it. See docs/live-service.md.
 */
import type { ProxyInfo, ProxyOptions } from '../proxy/proxy';
import { ControlError, type ControlRouter } from './router';

/** Starting, stopping and reading the proxy of a running sandbox. */
export interface ProxyControl {
	current(): ProxyInfo | undefined;
	/** Starts the proxy (stopping one that runs first); rejects with what to do. */
	start(options: ProxyOptions): Promise<ProxyInfo>;
	/** Stops it; false when none ran. */
	stop(): Promise<boolean>;
}

function jsonObject(body: string): Record<string, unknown> {
	let data: unknown;
	try {
		data = JSON.parse(body);
	} catch {
		throw new ControlError(400, 'The body must be JSON: {"upstream": "https://api.example.com"} and options.');
	}
	if (typeof data !== 'object' || data === null || Array.isArray(data)) {
		throw new ControlError(400, 'The body must be a JSON object with "upstream".');
	}
	return data as Record<string, unknown>;
}

/** The proxy's options from a POST body; every error names the field. */
export function proxyOptionsOfBody(body: string): ProxyOptions {
	const data = jsonObject(body);
	const known = ['upstream', 'port', 'namespace', 'postingPath', 'ca', 'via', 'timeoutMs', 'credentials'];
	for (const key of Object.keys(data)) {
		if (!known.includes(key)) throw new ControlError(400, `${key} is not an option (known: ${known.join(', ')}).`);
	}
	const text = (name: string): string | undefined => {
		const value = data[name];
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value !== 'string') throw new ControlError(400, `${name} must be text.`);
		return value;
	};
	const upstream = text('upstream');
	if (!upstream) throw new ControlError(400, "upstream is missing: the live service's base URL.");
	const options: ProxyOptions = { upstream };
	if (data.port !== undefined) {
		if (!Number.isInteger(data.port) || (data.port as number) < 0 || (data.port as number) > 65535) {
			throw new ControlError(400, 'port must be a whole number from 0 to 65535.');
		}
		options.port = data.port as number;
	}
	if (data.timeoutMs !== undefined) {
		if (!Number.isInteger(data.timeoutMs) || (data.timeoutMs as number) < 100) {
			throw new ControlError(400, 'timeoutMs must be a whole number of milliseconds, at least 100.');
		}
		options.timeoutMs = data.timeoutMs as number;
	}
	const namespace = text('namespace');
	if (namespace) options.namespace = namespace;
	const postingPath = text('postingPath');
	if (postingPath) options.postingPath = postingPath;
	const via = text('via');
	if (via) options.via = via;
	if (data.credentials !== undefined) {
		const given = data.credentials as Record<string, unknown>;
		if (typeof given !== 'object' || given === null || Object.values(given).some((v) => typeof v !== 'string')) {
			throw new ControlError(400, 'credentials must be {"apiKey"?: text, "password"?: text}.');
		}
		options.credentials = {
			...(given.apiKey ? { apiKey: given.apiKey as string } : {}),
			...(given.password ? { password: given.password as string } : {}),
		};
	}
	const ca = text('ca');
	if (ca) {
		if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
			throw new ControlError(400, 'ca must be PEM text (-----BEGIN CERTIFICATE-----…).');
		}
		options.ca = [ca];
	}
	return options;
}

/** Registers `/__admin/proxy` (GET, POST, DELETE). */
export function registerProxyRoutes(router: ControlRouter, proxy: ProxyControl): void {
	router
		.add('GET', '/__admin/proxy', () => ({ body: { proxy: proxy.current() ?? null } }))
		.add(
			'POST',
			'/__admin/proxy',
			async ({ body }) => {
				const options = proxyOptionsOfBody(body);
				try {
					return { body: { proxy: await proxy.start(options) } };
				} catch (error) {
					throw new ControlError(409, error instanceof Error ? error.message : String(error));
				}
			},
			{ maxBodyBytes: 1024 * 1024 },
		)
		.add('DELETE', '/__admin/proxy', async () => ({ body: { stopped: await proxy.stop() } }));
}
