/**
 * How "Copy as curl" writes the credentials, remembered in the setting
 * multiposting.playground.curlSecrets: as the shell variables $MP_API_KEY and $MP_PASSWORD
 * (default), or the real values. Every copy says which it did and offers the other. Pure.
 */
import { CURL_ENV } from './snippets';

export type CurlSecrets = 'environment' | 'include';

/** The setting's value, 'environment' unless it says 'include'. */
export function curlSecretsOf(value: unknown): CurlSecrets {
	return value === 'include' ? 'include' : 'environment';
}

/** The notification after a copy: what was done, and the button that switches (and remembers). */
export function curlNotice(choice: CurlSecrets): { message: string; switchTo: CurlSecrets; switchLabel: string } {
	if (choice === 'include') {
		return {
			message:
				'Copied as curl with the real API key and password (your saved choice). Treat the clipboard as a secret.',
			switchTo: 'environment',
			switchLabel: `Use $${CURL_ENV.apiKey} / $${CURL_ENV.password} from now on`,
		};
	}
	return {
		message: `Copied as curl: the API key and password are $${CURL_ENV.apiKey} and $${CURL_ENV.password}; set them before running it.`,
		switchTo: 'include',
		switchLabel: 'Include the secrets from now on',
	};
}
