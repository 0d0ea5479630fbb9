/**
 * Turns replay on and off for a request file's `replay:` lines, through the sandbox's control endpoint
 * (`/__admin/replay`, docs/live-service.md): the recording is read relative to the request file and
 * sent whole.
 */
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import type { Dispatcher } from 'undici';
import { MAX_REPLAY_BODY_BYTES } from '../protocol/recordings/format';
import { controlCall, controlRefusal } from './controlEndpoint';

export interface ReplaySwitch {
	/** Has the sandbox answer from the recording of `spec` (`file.mprec.json [strict|fall-through]`). */
	on(spec: string, signal?: AbortSignal): Promise<void>;
	off(signal?: AbortSignal): Promise<void>;
}

/** The switch of a sandbox at `baseUrl`; files are read relative to `folder`. */
export function controlEndpointReplay(
	baseUrl: string,
	folder: string | undefined,
	dispatcher?: Dispatcher,
): ReplaySwitch {
	const url = `${baseUrl.replace(/\/+$/, '')}/__admin/replay`;
	return {
		async on(spec, signal) {
			const [file, mode = 'strict'] = spec.split(/\s+/);
			const path = isAbsolute(file) || folder === undefined ? file : join(folder, file);
			let text: string;
			try {
				text = await readFile(path, 'utf8');
			} catch (error) {
				throw new Error(
					`cannot read the recording ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
					{ cause: error },
				);
			}
			if (Buffer.byteLength(text) > MAX_REPLAY_BODY_BYTES) {
				throw new Error(`the recording ${path} is larger than ${MAX_REPLAY_BODY_BYTES} bytes.`);
			}
			const body = JSON.stringify({
				mode: mode === 'fall-through' ? 'fallThrough' : 'strict',
				recordings: [{ name: basename(file), text }],
			});
			const answer = await controlCall('POST', url, body, { signal, dispatcher });
			if (answer.status !== 200) throw controlRefusal(answer.status, answer.error, url, 'recordings');
		},
		async off(signal) {
			const answer = await controlCall('DELETE', url, '', { signal, dispatcher });
			if (answer.status !== 200) throw controlRefusal(answer.status, answer.error, url, 'recordings');
		},
	};
}
