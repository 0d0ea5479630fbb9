/**
 * The last check before a recording is written: no credential may remain in it, in any form the one
 * placeholder redactor knows (as is, percent- and form-encoded, XML-escaped, escaped twice,
 * JSON-escaped, base64), and every credential element or field must hold its placeholder or nothing.
 * A text the redactor would change still holds a credential: the recording is refused. Pure.
 */
import { createPlaceholderRedactor, type RoleSecret } from '../requestFiles/placeholderRedactor';
import { credentialPlaceholder } from '../requestFiles/placeholders';
import { echoedSecretForms, MIN_FREE_MATCH_LENGTH, secretForms, wholeTokenPattern } from '../secretForms';
import { serializeRecording, type Recording } from './format';

/** Places named at most in one refusal. */
const MAX_PLACES = 10;

/** A recording that would keep a credential; `places` are the fields (`exchanges[2].request.body`). */
export class CredentialInRecordingError extends Error {
	override readonly name = 'CredentialInRecordingError';
	constructor(readonly places: readonly string[]) {
		super(
			`The recording would keep a credential (${places.join(', ')}); nothing was written. ` +
				'Every sAPIKey and sPassword must be {{connection.apiKey}} / {{connection.password}}.',
		);
	}
}

/** Every field of the recording where a credential remains, `secrets` being every credential known to be in play. */
export function credentialsLeft(recording: Recording, secrets: readonly RoleSecret[]): string[] {
	const redact = createPlaceholderRedactor(secrets, { echoed: true }).text;
	const places: string[] = [];
	const visit = (value: unknown, path: string): void => {
		if (places.length >= MAX_PLACES) return;
		if (typeof value === 'string') {
			if (redact(value) !== value) places.push(path || '(root)');
		} else if (Array.isArray(value)) {
			value.forEach((item, index) => visit(item, `${path}[${index}]`));
		} else if (typeof value === 'object' && value !== null) {
			for (const [key, item] of Object.entries(value)) {
				const at = path ? `${path}.${key}` : key;
				if (redact(key) !== key) places.push(`${path ? `${path}.` : ''}(a field name)`);
				// A decoded credential parameter holds its placeholder or nothing, whatever its value was.
				const placeholder = credentialPlaceholder(key);
				if (placeholder !== undefined && typeof item === 'string' && item !== '' && item !== placeholder) {
					places.push(at);
					continue;
				}
				visit(item, at);
			}
		}
	};
	visit(recording, '');
	// The file's own text too: JSON escaping makes forms of its own (the echoed forms include them). Only
	// the secrets' forms are looked for there: a credential field's value would run on into the JSON.
	if (places.length === 0 && holdsSecretForm(serializeRecording(recording), secrets)) {
		places.push('the file as written');
	}
	return places;
}

/** True when a text holds a secret in any form the redactor knows (short ones as whole tokens). */
function holdsSecretForm(text: string, secrets: readonly RoleSecret[]): boolean {
	const short: string[] = [];
	for (const { value } of secrets) {
		if (value === '') continue;
		const forms = [...secretForms(value), ...echoedSecretForms(value)];
		if (value.length < MIN_FREE_MATCH_LENGTH) short.push(...forms);
		else if (forms.some((form) => text.includes(form))) return true;
	}
	return wholeTokenPattern(short)?.test(text) ?? false;
}

/** Throws CredentialInRecordingError when a credential remains; returns the file's text otherwise. */
export function checkedRecordingText(recording: Recording, secrets: readonly RoleSecret[]): string {
	const places = credentialsLeft(recording, secrets);
	if (places.length > 0) throw new CredentialInRecordingError(places);
	return serializeRecording(recording);
}
