/** The raw HTTP part of a request file: request line, headers, blank line, body. Pure. */
import { RequestFileError } from './issues';

/** A raw HTTP request as the user typed it; sent as it is. */
export interface RawHttpRequest {
	method: string;
	/** Path plus query, e.g. /SOAP/Posting.asmx/GetCurrency?sCultureID=en; or a URL of the same origin. */
	target: string;
	/** Header lines in order, names as written. */
	headers: [string, string][];
	body: string;
}

/**
 * Reads a raw HTTP request: `METHOD target [HTTP/1.1]`, header lines `Name: value`, a blank line,
 * then the body verbatim. `lineOffset` is added to line numbers in errors (its position in a file).
 */
export function parseRawHttpRequest(text: string, lineOffset = 0): RawHttpRequest {
	const lines = text.split('\n');
	let index = 0;
	while (index < lines.length && lines[index].trim().length === 0) index += 1;
	const issues: { line: number; message: string }[] = [];
	const requestLine = (lines[index] ?? '').replace(/\r$/, '').trim();
	const match = /^(\S+)\s+(\S+)(?:\s+HTTP\/\d(?:\.\d)?)?$/.exec(requestLine);
	if (!match) {
		throw new RequestFileError([
			{
				line: lineOffset + index + 1,
				message: `expected a request line "METHOD /path HTTP/1.1", got "${truncate(requestLine)}".`,
			},
		]);
	}
	const headers: [string, string][] = [];
	index += 1;
	for (; index < lines.length; index += 1) {
		const line = lines[index].replace(/\r$/, '');
		if (line.trim().length === 0) {
			index += 1;
			break;
		}
		const colon = line.indexOf(':');
		if (colon <= 0) {
			issues.push({
				line: lineOffset + index + 1,
				message: `expected a header "Name: value", got "${truncate(line)}".`,
			});
			continue;
		}
		headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
	}
	if (issues.length > 0) throw new RequestFileError(issues);
	return { method: match[1], target: match[2], headers, body: lines.slice(index).join('\n') };
}

export function truncate(text: string, max = 60): string {
	return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
