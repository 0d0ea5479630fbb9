/**
 * What a request means, for replay: the operation, its endpoint, the binding family and the parameter
 * values after normalisation. Two requests that mean the same get the same key, however they were
 * written: envelope prefixes, whitespace, the order of GET/POST fields, the SOAP stack that wrote them
 * and the credentials they carry play no part. Pure.
 */
import type { BindingName } from '../bindings/types';
import { OPERATIONS, type AnyParams, type Endpoint, type OperationName } from '../catalogue';
import { normaliseResult, type Normalised } from '../compare';
import { CREDENTIAL_PARAMS } from '../requestFiles/placeholders';

/**
 * Answers are alike within a family: GET and POST answer the same document, while SOAP 1.1 and 1.2 answer
 * envelopes of their own (another namespace and content type), so each is a family of its own.
 */
export type BindingFamily = 'soap11' | 'soap12' | 'http';

export function bindingFamily(binding: BindingName): BindingFamily {
	return binding === 'httpGet' || binding === 'httpPost' ? 'http' : binding;
}

export interface RequestMeaning {
	operation: OperationName;
	endpoint: Endpoint;
	family: BindingFamily;
	/** Parameter values in catalogue order; credentials and empty values left out, defaults filled in. */
	params: Record<string, Normalised>;
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** The meaning of a decoded request. */
export function meaningOf(
	operation: OperationName,
	endpoint: Endpoint,
	binding: BindingName,
	params: AnyParams,
): RequestMeaning {
	const normalised: Record<string, Normalised> = {};
	for (const spec of OPERATIONS[operation].params) {
		if (Object.prototype.hasOwnProperty.call(CREDENTIAL_PARAMS, spec.name)) continue;
		// An empty field (GET/POST) and a left-out element (SOAP) are the same: the value is not given.
		const value = isEmpty(params[spec.name]) ? spec.default : params[spec.name];
		if (isEmpty(value)) continue;
		const kept = normaliseResult(value);
		if (kept !== undefined) normalised[spec.name] = kept;
	}
	return { operation, endpoint, family: bindingFamily(binding), params: normalised };
}

/** A key equal for two meanings exactly when they mean the same. */
export function meaningKey(meaning: RequestMeaning): string {
	return JSON.stringify([meaning.endpoint, meaning.family, meaning.operation, meaning.params]);
}

/** One parameter whose value differs between a request and a recorded one. */
export interface ParamDifference {
	name: string;
	/** The value as sent, or undefined when it was not given. */
	sent?: Normalised;
	recorded?: Normalised;
}

/** The parameters whose values differ, in catalogue order. */
export function paramDifferences(sent: RequestMeaning, recorded: RequestMeaning): ParamDifference[] {
	const differences: ParamDifference[] = [];
	for (const spec of OPERATIONS[recorded.operation].params) {
		const a = sent.params[spec.name];
		const b = recorded.params[spec.name];
		if (JSON.stringify(a) !== JSON.stringify(b)) differences.push({ name: spec.name, sent: a, recorded: b });
	}
	return differences;
}

/** A difference as one short phrase: `sAdvertID: 43 sent, 42 recorded`. */
export function describeParamDifference({ name, sent, recorded }: ParamDifference): string {
	const shown = (value: Normalised | undefined): string => {
		if (value === undefined) return 'not given';
		const text = JSON.stringify(value);
		return text.length > 60 ? `${text.slice(0, 57)}…` : text;
	};
	return `${name}: ${shown(sent)} sent, ${shown(recorded)} recorded`;
}
