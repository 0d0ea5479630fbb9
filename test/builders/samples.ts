/**
 * Sample values built from the catalogue: parameters and results for any operation, with awkward
 * text (markup characters, non-ASCII, entities) so codecs are exercised on every field.
 */
import {
	OPERATIONS,
	getRecord,
	type AnyParams,
	type FieldType,
	type OperationName,
	type ScalarType,
} from '../../src/protocol/catalogue';

const AWKWARD = 'Zoë & <Müller> "quoted" \'apos\' 😀';

export function sampleScalar(type: ScalarType, seed: number): unknown {
	switch (type) {
		case 'string':
			return `${AWKWARD} #${seed}`;
		case 'int':
			return seed % 2 === 0 ? 2147483647 - seed : -seed;
		case 'short':
			return 1000 + seed;
		case 'unsignedByte':
			return seed % 256;
		case 'decimal':
			return `${seed}.0100000000000000001`;
		case 'boolean':
			return seed % 2 === 0;
		case 'dateTime':
			return '2026-11-02T10:15:00.123+01:00';
		case 'base64Binary':
			return new Uint8Array([0, 255, seed % 256, 60, 38]);
	}
}

function sampleField(type: FieldType, seed: number, depth: number): unknown {
	if (typeof type === 'string') return sampleScalar(type, seed);
	if ('record' in type) return sampleRecord(type.record, seed, depth + 1);
	if ('list' in type) return [sampleRecord(type.list, seed, depth + 1), sampleRecord(type.list, seed + 1, depth + 1)];
	return [sampleScalar(type.scalarList, seed), sampleScalar(type.scalarList, seed + 1)];
}

/** A record with every field filled. */
export function sampleRecord(recordName: string, seed = 1, depth = 0): Record<string, unknown> {
	const record: Record<string, unknown> = {};
	getRecord(recordName).fields.forEach((field, i) => {
		record[field.name] = sampleField(field.type, seed + i, depth);
	});
	return record;
}

export function sampleResult(operation: OperationName): unknown {
	const spec = OPERATIONS[operation].result;
	return spec.kind === 'list'
		? [sampleRecord(spec.record, 1), sampleRecord(spec.record, 2)]
		: sampleRecord(spec.record, 1);
}

/** Parameters with every one given. */
export function sampleParams(operation: OperationName): AnyParams {
	const params: AnyParams = {};
	OPERATIONS[operation].params.forEach((param, i) => {
		switch (param.type) {
			case 'int':
				params[param.name] = i + 1;
				break;
			case 'boolean':
				params[param.name] = i % 2 === 0;
				break;
			case 'string[]':
				params[param.name] = ['108', `Feed & <${i}>`];
				break;
			default:
				params[param.name] = `${param.name} ${AWKWARD}`;
		}
	});
	return params;
}
