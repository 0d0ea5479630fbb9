/**
 * The one redactor of texts that are kept or shown: the playground's history, request files and the
 * sandbox's journal. Secrets become their `{{connection.*}}` placeholder in every form of secretForms
 * (and, on request, the forms a service may echo them in); whatever stands in a credential element or
 * field is its placeholder too. Built once per set of secrets; each text costs a few scans. Pure.
 */
import type { ParamRole } from '../catalogue';
import { echoedSecretForms, MIN_FREE_MATCH_LENGTH, secretForms, wholeTokenPattern } from '../secretForms';
import { CREDENTIAL_ELEMENT, CREDENTIAL_FIELD, credentialRoleOf, namesCredential } from './credentialPlaces';
import { CONNECTION_PLACEHOLDERS, SECRET_ROLES, credentialPlaceholder, type ConnectionValues } from './placeholders';

/** A secret value and the role whose placeholder stands for it. */
export interface RoleSecret {
	role: ParamRole;
	value: string;
}

export interface PlaceholderRedactorOptions {
	/**
	 * Also hide the forms a service, a log or a document may echo a secret in (echoedSecretForms:
	 * escaped twice, JSON-escaped, base64). They become ECHOED_SECRET_MARK: a placeholder there would be
	 * sent back as the plain secret.
	 */
	echoed?: boolean;
}

/** What stands for a secret found in a form that no placeholder can stand for. */
export const ECHOED_SECRET_MARK = '[redacted]';

/** What history and request-file writers store instead of credentials. */
export interface PlaceholderRedactor {
	/** A text with every known secret (in every form of secretForms) and every credential parameter's value as placeholders. */
	text(value: string): string;
	/** A parameter's value: its placeholder for a credential parameter (whatever was typed), else `text(value)`. */
	param(name: string, value: string): string;
}

/** Characters no form of secretForms or echoedSecretForms (base64 aside) changes. */
const UNCHANGED_BY_ENCODING = /[A-Za-z0-9._*-]+/g;
/** A shorter common run is too frequent to rule anything out: the forms themselves are searched then. */
const MIN_ANCHOR = 4;

function placeholderOf(name: string): string {
	const role = credentialRoleOf(name);
	return role ? CONNECTION_PLACEHOLDERS[role] : '';
}

/** Every credential element's and field's content as its placeholder. */
function redactPlaces(text: string): string {
	if (!namesCredential(text)) return text;
	return text
		.replace(
			CREDENTIAL_ELEMENT,
			(_match, open: string, _qualified: string, name: string, content: string, close: string) =>
				`${open}${content.length > 0 ? placeholderOf(name) : ''}${close}`,
		)
		.replace(
			CREDENTIAL_FIELD,
			(_match, lead: string, name: string, value: string) =>
				`${lead}${name}=${value.length > 0 ? placeholderOf(name) : ''}`,
		);
}

function secretsOf(secrets: ConnectionValues | readonly RoleSecret[]): RoleSecret[] {
	const list: RoleSecret[] = Array.isArray(secrets)
		? [...(secrets as readonly RoleSecret[])]
		: SECRET_ROLES.map((role) => ({ role, value: (secrets as ConnectionValues)[role] ?? '' }));
	const seen = new Set<string>();
	return list.filter(({ value }) => value.length > 0 && !seen.has(value) && seen.add(value));
}

/**
 * The redactor of the given secrets. A secret shorter than MIN_FREE_MATCH_LENGTH only where it stands
 * as a whole token (no letter or digit on either side), as in the client's redactor. Longest forms first,
 * so a secret containing another one is replaced whole.
 */
export function createPlaceholderRedactor(
	secrets: ConnectionValues | readonly RoleSecret[],
	options: PlaceholderRedactorOptions = {},
): PlaceholderRedactor {
	const replacements = new Map<string, string>();
	const probes = new Map<string, string>();
	const shortForms: string[] = [];
	for (const { role, value } of secretsOf(secrets)) {
		const placeholder = CONNECTION_PLACEHOLDERS[role];
		if (value.length < MIN_FREE_MATCH_LENGTH) {
			for (const form of secretForms(value)) {
				if (!replacements.has(form)) shortForms.push(form);
				replacements.set(form, replacements.get(form) ?? placeholder);
			}
			continue;
		}
		// Every form but base64 keeps the secret's runs of unchanged characters: one search rules them all out.
		const runs = value.match(UNCHANGED_BY_ENCODING) ?? [];
		const anchor = runs.reduce((best, run) => (run.length > best.length ? run : best), '');
		const echoed = options.echoed ? echoedSecretForms(value) : [];
		for (const form of [...secretForms(value), ...echoed]) {
			if (replacements.has(form)) continue;
			replacements.set(form, echoed.includes(form) ? ECHOED_SECRET_MARK : placeholder);
			probes.set(form, anchor.length >= MIN_ANCHOR && form.includes(anchor) ? anchor : form);
		}
	}
	const long = [...probes.keys()].sort((a, b) => b.length - a.length);
	const probeList = [...new Set(probes.values())];
	const probeIndex = long.map((form) => probeList.indexOf(probes.get(form)!));
	const shortToken = wholeTokenPattern(shortForms);
	const present = new Int8Array(probeList.length);

	const text = (value: string): string => {
		let result = value;
		if (long.length > 0) {
			present.fill(-1);
			for (let i = 0; i < long.length; i++) {
				const probe = probeIndex[i];
				if (present[probe] === -1) present[probe] = result.includes(probeList[probe]) ? 1 : 0;
				if (present[probe] === 1 && result.includes(long[i])) {
					result = result.split(long[i]).join(replacements.get(long[i])!);
				}
			}
		}
		if (shortToken) result = result.replace(shortToken, (form) => replacements.get(form)!);
		return redactPlaces(result);
	};
	return {
		text,
		param: (name, value) => (value.length > 0 ? (credentialPlaceholder(name) ?? text(value)) : text(value)),
	};
}

/**
 * Replaces every occurrence of a secret value (in every encoding of secretForms) and every credential
 * parameter's value by its placeholder, so text built with real credentials can be saved or shown.
 */
export function replaceSecretsWithPlaceholders(text: string, secrets: ConnectionValues): string {
	return createPlaceholderRedactor(secrets).text(text);
}
