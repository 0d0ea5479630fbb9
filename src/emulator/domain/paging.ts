/** The paging fields of paged results and the OrderBy parameter of searches. */
import { FaultError } from '../../protocol/faults';
import { parseOrderBy, type OrderTerm } from '../store/ordering';
import type { ParamReader } from './paramReader';

/**
 * The paging fields of a paged result. Callers add the page's items with Object.assign rather than a
 * spread: in V8 11 properties after a spread in a literal are defined one by one at runtime.
 */
export function pageInfo(total: number, page: { page: number; rowsPerPage: number }) {
	return { PageCount: Math.ceil(total / page.rowsPerPage), PageIndex: page.page, TotalItemCount: total };
}

/** OrderBy as terms over the allowed fields; anything else is a fault listing them. */
export function orderTerms<F extends string>(
	params: ParamReader<'OrderBy'>,
	allowed: Readonly<Record<F, string>>,
): OrderTerm<F>[] {
	const orderBy = params.text('OrderBy');
	if (orderBy === undefined) return [];
	const terms = parseOrderBy(orderBy, allowed);
	if (!terms) {
		throw FaultError.client(
			'InvalidParameter',
			`OrderBy '${orderBy}' is not supported. Use "<Field> asc|desc" with a field from: ${Object.keys(allowed).join(', ')}.`,
		);
	}
	return terms;
}
