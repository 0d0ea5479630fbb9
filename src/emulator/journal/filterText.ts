/**
 * The filter typed by a person, as the Traffic view and breakpoints read it: `op:AddAdvert status:5xx
 * client:127.0.0.1 upstream:api.example.com` and free text, looked for in the path, operation, fault and bodies.
 */
import type { JournalFilter } from './journal';

export function parseFilter(text: string): JournalFilter {
	const filter: JournalFilter = {};
	const words: string[] = [];
	for (const word of text.trim().split(/\s+/).filter(Boolean)) {
		const match = /^(op|operation|status|client|upstream):(.+)$/i.exec(word);
		if (!match) words.push(word);
		else {
			const key = match[1].toLowerCase();
			if (key === 'status') filter.status = match[2];
			else if (key === 'client') filter.client = match[2];
			else if (key === 'upstream') filter.upstream = match[2];
			else filter.operation = match[2];
		}
	}
	if (words.length > 0) filter.text = words.join(' ');
	return filter;
}
