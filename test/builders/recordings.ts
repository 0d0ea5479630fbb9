/** A recorded exchange and a recording around it, for the tests of the recording format. */
import type { RecordedExchange, Recording } from '../../src/protocol/recordings/format';

/** GetCurrency over HTTP GET, its key already a placeholder, answered with an empty list. */
export function recordedExchange(id: number, extra: Partial<RecordedExchange> = {}): RecordedExchange {
	return {
		id,
		time: '2026-03-01T10:00:00.000Z',
		request: {
			method: 'GET',
			path: '/SOAP/Posting.asmx/GetCurrency',
			query: 'sCultureID=en-GB&sAPIKey={{connection.apiKey}}',
			headers: { accept: 'text/xml' },
			body: '',
		},
		response: {
			status: 200,
			headers: { 'content-type': 'text/xml; charset=utf-8' },
			body: '<ArrayOfGetValue xmlns="https://api.example.test/" />',
		},
		...extra,
	};
}

export function recordingOf(exchanges: RecordedExchange[] = [recordedExchange(1)]): Recording {
	return {
		format: 'multiposting-recording',
		version: 1,
		recordedAt: '2026-03-01T10:05:00.000Z',
		namespace: 'https://api.example.test/',
		paths: { posting: '/SOAP/Posting.asmx', administration: '/SOAP/Administration.asmx' },
		exchanges,
	};
}
