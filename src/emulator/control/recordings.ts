/**
 * `POST /__admin/recordings`: chosen exchanges of the journal as a recording file's text, after the
 * check that no credential remains (refused with 409 otherwise). See docs/live-service.md.
 */
import { CredentialInRecordingError } from '../../protocol/recordings/credentials';
import type { Journal } from '../journal/journal';
import { parseFilter } from '../journal/filterText';
import { makeRecording, RecordingError, type ServiceContexts } from '../recordings/recorder';
import { ControlError, type ControlRouter } from './router';

/** Registers `/__admin/recordings` (POST): `{"ids": [3, 4, 5]}` or `{"filter": "upstream:api.example.com"}`. */
export function registerRecordingRoutes(router: ControlRouter, journal: Journal, contexts: ServiceContexts): void {
	router.add('POST', '/__admin/recordings', ({ body }) => {
		let data: Record<string, unknown>;
		try {
			data = (JSON.parse(body || '{}') ?? {}) as Record<string, unknown>;
		} catch {
			throw new ControlError(400, 'The body must be JSON: {"ids": [1, 2]} or {"filter": "…"}.');
		}
		let entries;
		if (Array.isArray(data.ids)) {
			if (!data.ids.every((id) => Number.isInteger(id))) {
				throw new ControlError(400, 'ids must be whole numbers.');
			}
			entries = (data.ids as number[]).map((id) => {
				const entry = journal.get(id);
				if (!entry) {
					throw new ControlError(
						404,
						`No exchange ${id} in the journal (it keeps the last ${journal.stats().capacity}).`,
					);
				}
				return entry;
			});
		} else if (typeof data.filter === 'string') {
			entries = journal.list(parseFilter(data.filter));
		} else {
			throw new ControlError(
				400,
				'Say which exchanges: {"ids": [1, 2]} or {"filter": "upstream:api.example.com"}.',
			);
		}
		try {
			const { recording, text } = makeRecording(entries, contexts, journal);
			return {
				body: { text, exchanges: recording.exchanges.length, upstream: recording.upstream ?? null },
			};
		} catch (error) {
			if (error instanceof RecordingError || error instanceof CredentialInRecordingError) {
				throw new ControlError(409, error.message);
			}
			throw error;
		}
	});
}
