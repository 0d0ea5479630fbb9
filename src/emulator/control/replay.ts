/**
 * Replay's control routes: what is replayed and how often it was matched, load recordings (strict or
 * fall-through), turn replay off. See docs/live-service.md.
 */
import {
	MAX_REPLAY_BODY_BYTES,
	parseRecording,
	readRecording,
	RecordingFormatError,
} from '../../protocol/recordings/format';
import type { LoadedRecording, ReplayInfo, ReplayMode } from '../replay/replayer';
import { ControlError, type ControlRouter } from './router';

export interface ReplayControl {
	info(): (ReplayInfo & { notes: string[] }) | undefined;
	load(recordings: LoadedRecording[], mode: ReplayMode): ReplayInfo & { notes: string[] };
	/** False when nothing was replayed. */
	clear(): boolean;
}

/** The recordings and mode of a POST body: `{"mode": "strict", "recordings": [{"name", "text" | "recording"}]}`. */
export function replayOfBody(body: string): { recordings: LoadedRecording[]; mode: ReplayMode } {
	let data: Record<string, unknown>;
	try {
		data = (JSON.parse(body) ?? {}) as Record<string, unknown>;
	} catch {
		throw new ControlError(
			400,
			'The body must be JSON: {"mode": "strict", "recordings": [{"name": …, "text": …}]}.',
		);
	}
	const mode = data.mode ?? 'strict';
	if (mode !== 'strict' && mode !== 'fallThrough') throw new ControlError(400, 'mode must be strict or fallThrough.');
	if (!Array.isArray(data.recordings) || data.recordings.length === 0) {
		throw new ControlError(400, 'recordings must be a list of at least one {"name", "text"} (or "recording").');
	}
	const recordings = data.recordings.map((item: unknown, index): LoadedRecording => {
		const entry = (item ?? {}) as Record<string, unknown>;
		const name = typeof entry.name === 'string' && entry.name ? entry.name : `recording ${index + 1}`;
		try {
			if (typeof entry.text === 'string') return { name, recording: parseRecording(entry.text, name) };
			return { name, recording: readRecording(entry.recording, name) };
		} catch (error) {
			if (error instanceof RecordingFormatError) throw new ControlError(400, error.message);
			throw error;
		}
	});
	return { recordings, mode };
}

/** Registers `/__admin/replay` (GET, POST, DELETE). */
export function registerReplayRoutes(router: ControlRouter, replay: ReplayControl): void {
	router
		.add('GET', '/__admin/replay', () => ({ body: { replay: replay.info() ?? null } }))
		.add(
			'POST',
			'/__admin/replay',
			({ body }) => {
				const { recordings, mode } = replayOfBody(body);
				return { body: { replay: replay.load(recordings, mode) } };
			},
			{ maxBodyBytes: MAX_REPLAY_BODY_BYTES },
		)
		.add('DELETE', '/__admin/replay', () => ({ body: { stopped: replay.clear() } }));
}
