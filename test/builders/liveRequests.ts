/**
 * The requests of an integration under test against the live service, as a hand-written client sends
 * them, and the namespace of the live stand-in (a sandbox started with `namespace: LIVE_NAMESPACE`).
 */

export const LIVE_NAMESPACE = 'https://live.example.com/';

/** SOAP 1.1, or SOAP 1.2 with the action in the content type. */
export type SoapVersion = '1.1' | '1.2';

const ENVELOPES: Record<SoapVersion, { prefix: string; uri: string }> = {
	'1.1': { prefix: 's', uri: 'http://schemas.xmlsoap.org/soap/envelope/' },
	'1.2': { prefix: 'soap12', uri: 'http://www.w3.org/2003/05/soap-envelope' },
};

function envelope(version: SoapVersion, body: string): string {
	const { prefix, uri } = ENVELOPES[version];
	return `<?xml version="1.0" encoding="utf-8"?>
<${prefix}:Envelope xmlns:${prefix}="${uri}">
  <${prefix}:Body>
${body}
  </${prefix}:Body>
</${prefix}:Envelope>`;
}

/**
 * GetWeeksToAdvertise whose sAPIKey has no namespace (a common hand-written-client bug): production
 * (ASMX, and the strict sandbox) ignores the element, so the key is missing; a loose stand-in accepts it.
 */
export function weeksWithUnqualifiedKey(apiKey: string, namespace = LIVE_NAMESPACE): string {
	return envelope(
		'1.1',
		`    <GetWeeksToAdvertise xmlns="${namespace}">
      <sCultureID>en-GB</sCultureID>
      <sAPIKey xmlns="">${apiKey}</sAPIKey>
    </GetWeeksToAdvertise>`,
	);
}

/** GetAdvertPaged, page 1 of 2 rows. */
export function advertPage(apiKey: string, version: SoapVersion = '1.1'): string {
	return envelope(
		version,
		`    <GetAdvertPaged xmlns="${LIVE_NAMESPACE}">
      <sCultureID>en-GB</sCultureID>
      <sAPIKey>${apiKey}</sAPIKey>
      <CurrentPage>1</CurrentPage>
      <RowsPerPage>2</RowsPerPage>
    </GetAdvertPaged>`,
	);
}
