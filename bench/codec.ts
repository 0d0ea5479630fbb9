/**
 * Benchmarks 1 and 2: decoding responses and encoding requests, this project against node-soap,
 * fast-xml-parser, txml and saxes, on the same data in the same process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import * as soap from 'soap';
import { getBinding } from '../src/protocol/bindings';
import type { AnyParams, OperationName } from '../src/protocol/catalogue';
import { generateWsdl } from '../src/protocol/wsdl';
import { fmt, sink, table, timeInterleaved, type Section } from './common';

/** txml ships its CommonJS build as .cjs behind an ESM-typed package: loaded with require. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const txmlParse = (require('txml') as { parse(xml: string): unknown }).parse;

const NAMESPACE = 'https://api.example.com/';
const CTX = { namespace: NAMESPACE, endpointPath: '/SOAP/Posting.asmx' };
const SOAP11_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';

/**
 * One application without documents as a service typically sends it: identifiers, candidate, dates,
 * flags and score filled, the optional phones, address and display dates left out (about 600 bytes
 * of XML with the four nil document elements), so 10 MB holds tens of thousands of applications.
 */
function application(i: number): Record<string, unknown> {
	const day = String(1 + (i % 28)).padStart(2, '0');
	return {
		AdvertCandidateID: 1_000_000 + i,
		AdvertID: 5000 + (i % 200),
		CandidateID: 200_000 + i,
		PostingID: 70_000 + (i % 900),
		FeedID: 1 + (i % 15),
		FeedName: `Board ${i % 15}`,
		ApplicationDate: `2026-03-${day}T10:15:30`,
		EmailAddress: `c${i}@example.org`,
		LastName: i % 50 === 0 ? `O'Brien & Sons` : `Last${i}`,
		FirstName: `First${i}`,
		Viewed: i % 2 === 0,
		Score: i % 5,
		Ranking: 'Suitable',
		ProgressID: 1 + (i % 7),
		AdvertTitle: 'Senior <Software> Engineer',
		UserID: 10 + (i % 30),
		OrganisationID: 3 + (i % 12),
		Archived: false,
		Favourite: i % 3 === 0,
		LastScoreDate: `2026-04-${day}T08:00:00`,
	};
}

function pagedResponse(applications: Record<string, unknown>[]): Uint8Array {
	const result = { PageCount: 1, PageIndex: 1, TotalItemCount: applications.length, Applications: applications };
	return getBinding('soap11').encodeResponse('GetApplicationsPaged', result, CTX).body;
}

/** A GetApplicationsPaged response of about `targetBytes` (applications without documents). */
export function buildRecordsResponse(targetBytes: number): { body: Uint8Array; records: number } {
	const probe = pagedResponse(Array.from({ length: 200 }, (_, i) => application(i)));
	const records = Math.round((targetBytes / probe.length) * 200);
	return { body: pagedResponse(Array.from({ length: records }, (_, i) => application(i))), records };
}

/** A GetApplicationsPaged response with one application carrying one attachment of `bytes` bytes. */
export function buildAttachmentResponse(bytes: number): Uint8Array {
	const content = new Uint8Array(bytes);
	let x = 12345;
	for (let i = 0; i < bytes; i++) {
		x = (x * 1103515245 + 12345) >>> 0;
		content[i] = x >>> 24;
	}
	const app = {
		...application(1),
		EmailFirstAttachment: {
			FileName: 'cv.pdf',
			DocumentType: 'Attachment',
			EncodingType: 'base64',
			DocumentSource: 'Email',
			DocumentFormat: 'pdf',
			DocumentBytes: content,
		},
	};
	return pagedResponse([app]);
}

const ADD_ADVERT: AnyParams = {
	sAPIKey: 'bench-api-key',
	sUsername: 'demo.admin',
	sPassword: 'bench-password',
	sCultureID: 'en-GB',
	sAdvertIdentifier: 'ADV-BENCH-1',
	sAdvertReference: 'REF/1',
	sSearchDays: '30',
	sOnDuplicate: 'Update',
	sJobTitle: 'Senior Software Engineer',
	sJobType: 'P',
	sJobHours: 'F',
	sPrimaryLocation: 'London',
	sIndustry: 'IT',
	sSalaryFrom: '50000',
	sSalaryTo: '70000',
	sSalaryCurrency: 'GBP',
	sSalaryPer: 'Y',
	sSalaryBenefits: 'Pension & car',
	sContactName: 'Jane Doe',
	sContactEmail: 'jane@example.com',
	sJobDescription:
		'<p>We are looking for an engineer to join a small team building &amp; running services.</p>'.repeat(8),
	sApplicationURL: 'https://example.com/apply?id=1&src=bench',
	DestinationsAsCSV: '1,2,3,4,5',
};
const GET_APPLICATIONS: AnyParams = {
	sAPIKey: 'bench-api-key',
	sUsername: 'demo.admin',
	sPassword: 'bench-password',
	sAdvertID: '5001',
	sApplicationStartDateTime: '2026-01-01T00:00:00',
	sApplicationEndDateTime: '2026-12-31T23:59:59',
	RankingAsCSV: 'Suitable,Maybe',
	ProgressIDAsCSV: '1,2,3',
	boolIncludeEmailBody: 'false',
	CurrentPage: 1,
	RowsPerPage: 100,
};

interface SoapClientLike {
	wsdl: {
		xmlToObject(xml: string): unknown;
		objectToDocumentXML(name: string, params: unknown, nsPrefix: string, nsURI?: string, type?: string): string;
		definitions: {
			services: Record<
				string,
				{
					ports: Record<
						string,
						{
							binding: {
								methods: Record<
									string,
									{
										input: {
											$name: string;
											targetNSAlias: string;
											targetNamespace: string;
											$type?: string;
											$lookupType?: string;
										};
									}
								>;
							};
						}
					>;
				}
			>;
		};
	};
}

/** node-soap's request: the document body from objectToDocumentXML inside the envelope its client writes. */
function nodeSoapRequest(client: SoapClientLike, operation: string, params: AnyParams): Uint8Array {
	const service = Object.values(client.wsdl.definitions.services)[0];
	const port = Object.values(service.ports)[0];
	const input = port.binding.methods[operation].input;
	const message = client.wsdl.objectToDocumentXML(
		input.$name,
		params,
		input.targetNSAlias,
		input.targetNamespace,
		input.$type ?? input.$lookupType,
	);
	const xml = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_ENV}" xmlns:tns="${NAMESPACE}"><soap:Body>${message}</soap:Body></soap:Envelope>`;
	return Buffer.from(xml, 'utf8');
}

function saxesTokenize(text: string): number {
	const parser = new SaxesParser({ xmlns: false });
	let events = 0;
	parser.on('opentag', () => {
		events++;
	});
	parser.on('text', () => {
		events++;
	});
	parser.on('closetag', () => {
		events++;
	});
	parser.write(text).close();
	return events;
}

/** The physical floor: UTF-8 decoding plus one scan of the text. */
function decodeAndScan(body: Uint8Array): number {
	const text = new TextDecoder().decode(body);
	return text.indexOf('\u0001');
}

interface DecodeRow {
	name: string;
	ms: number;
}

async function loadNodeSoap(dir: string): Promise<SoapClientLike> {
	const wsdlPath = join(dir, 'posting.wsdl');
	writeFileSync(
		wsdlPath,
		generateWsdl('posting', { namespace: NAMESPACE, location: `http://127.0.0.1:1${CTX.endpointPath}` }),
	);
	return (await soap.createClientAsync(wsdlPath)) as unknown as SoapClientLike;
}

/** Runs benchmarks 1 and 2 and returns their report sections. */
export async function runCodecBenchmarks(reps: number, log: (line: string) => void): Promise<Section[]> {
	const dir = mkdtempSync(join(tmpdir(), 'mp-bench-codec-'));
	try {
		const client = await loadNodeSoap(dir);
		const binding = getBinding('soap11');
		const fxp = new XMLParser({ ignoreAttributes: false });
		const decoders: [string, (body: Uint8Array) => unknown][] = [
			[
				'this project (soap11.decodeResponse, typed)',
				(body) => {
					const decoded = binding.decodeResponse(
						'GetApplicationsPaged',
						{ status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' }, body },
						CTX,
					);
					if (!decoded.ok) throw new Error('unexpected fault');
					return decoded.result;
				},
			],
			[
				'node-soap (wsdl.xmlToObject, typed by WSDL)',
				(body) => client.wsdl.xmlToObject(new TextDecoder().decode(body)),
			],
			['fast-xml-parser 5 (untyped)', (body) => fxp.parse(new TextDecoder().decode(body))],
			['txml (untyped)', (body) => txmlParse(new TextDecoder().decode(body))],
			['saxes (tokenize only)', (body) => saxesTokenize(new TextDecoder().decode(body))],
			['floor: TextDecoder + one indexOf scan', decodeAndScan],
		];

		const recordsData = buildRecordsResponse(10_000_000);
		const attachment = buildAttachmentResponse(5_550_000);
		log(
			`codec: records response ${(recordsData.body.length / 1e6).toFixed(2)} MB with ${recordsData.records} applications; attachment response ${(attachment.length / 1e6).toFixed(2)} MB`,
		);
		checkDecoders(binding, recordsData, attachment);

		const sections: Section[] = [];
		for (const [title, body, records] of [
			[
				`1a. Decoding a ${(recordsData.body.length / 1e6).toFixed(1)} MB GetApplicationsPaged response (${recordsData.records} applications)`,
				recordsData.body,
				recordsData.records,
			],
			[
				`1b. Decoding a ${(attachment.length / 1e6).toFixed(1)} MB response holding one base64 attachment`,
				attachment,
				1,
			],
		] as const) {
			const medians = timeInterleaved(
				decoders.map(
					([, decode]) =>
						() =>
							decode(body),
				),
				records > 1 ? reps : reps * 5,
				1,
			);
			const rows: DecodeRow[] = decoders.map(([name], i) => ({ name, ms: medians[i] }));
			for (const r of rows) log(`  ${r.name}: ${fmt(r.ms)} ms`);
			const ours = rows[0].ms;
			const nodeSoap = rows[1].ms;
			const saxes = rows[4].ms;
			const mb = body.length / 1e6;
			sections.push({
				title,
				body:
					table(
						['decoder', 'median ms', 'MB/s', 'records/s', 'ours is × faster'],
						rows.map((r) => [
							r.name,
							fmt(r.ms),
							fmt(mb / (r.ms / 1000)),
							fmt(records / (r.ms / 1000), 0),
							fmt(r.ms / ours, 2),
						]),
					) +
					`\n\nRatios: ours vs node-soap **${fmt(nodeSoap / ours, 2)}×** (target ≥ ${records > 1 ? 6 : 10}×); ours vs saxes tokenize-only **${fmt(saxes / ours, 2)}×** (target ≥ 0.5×).`,
			});
		}

		const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_' });
		const requests: [OperationName, AnyParams][] = [
			['AddAdvert', ADD_ADVERT],
			['GetApplicationsPaged', GET_APPLICATIONS],
		];
		const encodeRows: (string | number)[][] = [];
		const batch = 2000;
		for (const [operation, params] of requests) {
			const encoders: [string, () => unknown][] = [
				['this project (soap11.encodeRequest)', () => binding.encodeRequest(operation, params, CTX).body],
				['node-soap (objectToDocumentXML + envelope)', () => nodeSoapRequest(client, operation, params)],
				[
					'fast-xml-parser XMLBuilder (untyped)',
					() =>
						Buffer.from(
							builder.build({
								'?xml': { '@_version': '1.0', '@_encoding': 'utf-8' },
								'soap:Envelope': {
									'@_xmlns:soap': SOAP11_ENV,
									'soap:Body': { [operation]: { '@_xmlns': NAMESPACE, ...params } },
								},
							}) as string,
							'utf8',
						),
				],
			];
			const medians = timeInterleaved(
				encoders.map(([, encode]) => () => {
					let last: unknown;
					for (let i = 0; i < batch; i++) last = encode();
					return last;
				}),
				reps,
				1,
			);
			const times = encoders.map(([name], i) => ({ name, usPerOp: (medians[i] * 1000) / batch }));
			for (const t of times) log(`  encode ${operation} ${t.name}: ${fmt(t.usPerOp, 2)} µs`);
			for (const t of times) {
				encodeRows.push([
					operation,
					t.name,
					fmt(t.usPerOp, 2),
					fmt(1e6 / t.usPerOp, 0),
					fmt(t.usPerOp / times[0].usPerOp, 2),
				]);
			}
		}
		sections.push({
			title: '2. Encoding requests (SOAP 1.1)',
			body: table(['operation', 'encoder', 'µs per request', 'requests/s', 'ours is × faster'], encodeRows),
		});
		return sections;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** Checks that each decoder really decodes the data (a benchmark of a broken decoder is meaningless). */
function checkDecoders(
	binding: ReturnType<typeof getBinding>,
	recordsData: { body: Uint8Array; records: number },
	attachment: Uint8Array,
): void {
	const decoded = binding.decodeResponse(
		'GetApplicationsPaged',
		{ status: 200, headers: { 'content-type': 'text/xml' }, body: recordsData.body },
		CTX,
	);
	const apps = decoded.ok ? (decoded.result as { Applications: unknown[] }).Applications : [];
	if (apps.length !== recordsData.records) {
		throw new Error(`decoder returned ${apps.length} applications, expected ${recordsData.records}`);
	}
	const withDoc = binding.decodeResponse(
		'GetApplicationsPaged',
		{ status: 200, headers: { 'content-type': 'text/xml' }, body: attachment },
		CTX,
	);
	const doc = withDoc.ok
		? (withDoc.result as { Applications: { EmailFirstAttachment?: { DocumentBytes?: Uint8Array } }[] })
				.Applications[0].EmailFirstAttachment?.DocumentBytes
		: undefined;
	if (!(doc instanceof Uint8Array) || doc.length !== 5_550_000) {
		throw new Error('attachment was not decoded to its bytes');
	}
	sink(doc);
}
