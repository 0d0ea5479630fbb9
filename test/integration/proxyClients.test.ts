/**
 * Independent clients through the inspecting proxy to an HTTPS live service (a second sandbox behind a
 * test CA): curl, Python's zeep (Debian's python3-zeep, built from the WSDL fetched through the proxy)
 * and the repo's own client. Each exchange is journaled with the upstream and the decoded operation.
 */
import * as assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import type { RunningEmulator } from '../../src/emulator';
import type { JournalEntry } from '../../src/emulator/journal/types';
import { BINDING_NAMES } from '../../src/protocol/bindings/types';
import type { TestCertificates } from '../builders/certificates';
import { startLiveStandIn, type LiveStandIn } from '../builders/liveStandIn';
import { clientFor, envelope, SANDBOX_START_TIMEOUT_MS, soap11Headers } from './support';

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

function run(command: string, args: string[], input?: string): Promise<Run> {
	return new Promise((resolve) => {
		const child = execFile(
			command,
			args,
			{ timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
			(error, stdout, stderr) =>
				resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
		);
		if (input !== undefined) child.stdin?.end(input);
	});
}

/** Python: a zeep client from the WSDL read through the proxy, its SOAP 1.1 and 1.2 services pointed at the proxy. */
const ZEEP_SCRIPT = `
import json, sys, zeep, zeep.transports
proxy, api_key = sys.argv[1], sys.argv[2]
SOAP_ENCODING = 'http://schemas.xmlsoap.org/soap/encoding/'
# An ASMX WSDL imports the SOAP encoding schema, which zeep fetches from the web; offline, it gets the
# part the WSDL uses (soapenc:Array, for StringArray), as test/interop/python/client.py does.
SUBSET = ('<schema xmlns="http://www.w3.org/2001/XMLSchema" targetNamespace="%s">'
    '<complexType name="Array"><sequence><any namespace="##any" minOccurs="0" maxOccurs="unbounded" processContents="lax"/>'
    '</sequence><anyAttribute namespace="##other" processContents="lax"/></complexType></schema>' % SOAP_ENCODING).encode()
class OfflineTransport(zeep.transports.Transport):
    def load(self, url):
        if url.rstrip('/') == SOAP_ENCODING.rstrip('/'):
            return SUBSET
        return super().load(url)
client = zeep.Client(proxy + '/SOAP/Posting.asmx?WSDL', transport=OfflineTransport())
results = {}
for name in client.wsdl.bindings:
    local = name.split('}')[1]
    if local not in ('PostingSoap', 'PostingSoap12'):
        continue
    service = client.create_service(name, proxy + '/SOAP/Posting.asmx')
    rows = service.GetCurrency(sCultureID='en-GB', sAPIKey=api_key)
    results[local] = len(rows or [])
print(json.dumps(results))
`;

describe('integration: independent clients through the inspecting proxy', function () {
	this.timeout(SANDBOX_START_TIMEOUT_MS * 2);
	let standIn: LiveStandIn;
	let certificates: TestCertificates;
	let live: RunningEmulator;
	let front: LiveStandIn['front'];
	let sandbox: RunningEmulator;
	let proxyUrl: string;

	before(async () => {
		standIn = await startLiveStandIn();
		({ certificates, live, front, sandbox } = standIn);
		proxyUrl = (await sandbox.proxy.start({ upstream: front.baseUrl, port: 0, ca: [certificates.ca] })).url;
	});
	after(() => standIn?.stop());

	const lastId = (): number => sandbox.journal?.stats().lastId ?? 0;

	/** The exchanges journaled after `afterId`, oldest first, read from the control endpoint. */
	async function journaledAfter(afterId: number, count: number): Promise<JournalEntry[]> {
		let entries: JournalEntry[] = [];
		for (let attempt = 0; attempt < 20 && entries.length < count; attempt++) {
			const answer = await fetch(`${sandbox.baseUrl}/__admin/requests?after=${afterId}&wait=1&limit=100`);
			entries = ((await answer.json()) as { requests: JournalEntry[] }).requests.reverse();
		}
		return entries;
	}

	function assertProxied(entries: JournalEntry[], expected: { operation?: string; binding?: string }[]): void {
		assert.equal(entries.length, expected.length, JSON.stringify(entries.map((e) => [e.method, e.path])));
		entries.forEach((entry, i) => {
			assert.equal(entry.upstream, front.baseUrl, `exchange ${entry.id}`);
			assert.equal(entry.operation, expected[i].operation, `exchange ${entry.id}`);
			if (expected[i].binding) assert.equal(entry.binding, expected[i].binding, `exchange ${entry.id}`);
			assert.equal(entry.proxyError, undefined);
		});
	}

	it('curl: SOAP 1.1 and HTTP GET calls answered by the service, journaled with the upstream and operation', async () => {
		const before = lastId();
		const body = envelope(
			'1.1',
			'GetCurrency',
			live.namespace,
			`<sCultureID>en-GB</sCultureID><sAPIKey>${live.demo.apiKey}</sAPIKey>`,
		);
		const headers = soap11Headers(live.namespace, 'GetCurrency');
		const soap = await run(
			'curl',
			[
				'--silent',
				'--show-error',
				'--max-time',
				'30',
				'--write-out',
				'\n%{http_code}',
				'--header',
				`Content-Type: ${headers['content-type']}`,
				'--header',
				`SOAPAction: ${headers.soapaction}`,
				'--data-binary',
				'@-',
				`${proxyUrl}/SOAP/Posting.asmx`,
			],
			body,
		);
		assert.equal(soap.code, 0, soap.stderr);
		assert.match(soap.stdout, /\n200$/);
		assert.match(soap.stdout, /<GetCurrencyResponse/);
		const get = await run('curl', [
			'--silent',
			'--show-error',
			'--max-time',
			'30',
			'--write-out',
			'\n%{http_code}',
			`${proxyUrl}/SOAP/Posting.asmx/GetCurrency?sCultureID=en-GB&sAPIKey=${live.demo.apiKey}`,
		]);
		assert.equal(get.code, 0, get.stderr);
		assert.match(get.stdout, /\n200$/);
		assertProxied(await journaledAfter(before, 2), [
			{ operation: 'GetCurrency', binding: 'soap11' },
			{ operation: 'GetCurrency', binding: 'httpGet' },
		]);
	});

	it('Python zeep: built from the WSDL read through the proxy, calls in SOAP 1.1 and 1.2', async () => {
		const probe = spawnSync('/usr/bin/python3', ['-c', 'import zeep'], { encoding: 'utf8' });
		assert.equal(
			probe.status,
			0,
			`Python zeep is needed for this test and is not installed (Debian: apt-get install python3-zeep; ` +
				`scripts/setup-code-server.sh installs it): ${probe.stderr ?? probe.error?.message}`,
		);
		const direct = await clientFor(live).getCurrency({ sCultureID: 'en-GB' });
		assert.ok(direct.length > 0);
		const before = lastId();
		const zeep = await run('/usr/bin/python3', ['-c', ZEEP_SCRIPT, proxyUrl, live.demo.apiKey]);
		assert.equal(zeep.code, 0, zeep.stderr);
		const results = JSON.parse(zeep.stdout.trim().split('\n').pop() ?? '{}') as Record<string, number>;
		assert.deepEqual(results, { PostingSoap: direct.length, PostingSoap12: direct.length });
		const entries = await journaledAfter(before, 3);
		const calls = entries.filter((entry) => entry.operation !== undefined);
		const documents = entries.filter((entry) => entry.operation === undefined);
		assert.ok(documents.length >= 1, 'the WSDL was read through the proxy');
		for (const document of documents) {
			assert.equal(document.upstream, front.baseUrl);
			assert.equal(document.status, 200);
		}
		assertProxied(calls, [
			{ operation: 'GetCurrency', binding: 'soap11' },
			{ operation: 'GetCurrency', binding: 'soap12' },
		]);
	});

	it("the repo's own client: every binding, a read and a login call", async () => {
		const client = clientFor({ baseUrl: proxyUrl, namespace: live.namespace, demo: live.demo });
		const direct = clientFor(live);
		try {
			const before = lastId();
			const expected: { operation: string; binding: string }[] = [];
			for (const binding of BINDING_NAMES) {
				assert.deepEqual(
					await client.getCurrency({ sCultureID: 'en-GB' }, { binding }),
					await direct.getCurrency({ sCultureID: 'en-GB' }, { binding }),
				);
				assert.deepEqual(await client.userList({}, { binding }), await direct.userList({}, { binding }));
				expected.push({ operation: 'GetCurrency', binding }, { operation: 'UserList', binding });
			}
			assertProxied(await journaledAfter(before, expected.length), expected);
		} finally {
			await client.close();
			await direct.close();
		}
	});
});
