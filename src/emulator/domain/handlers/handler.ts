/**
 * What every handler module shares: the handler table's types, the dependencies a module gets, and the
 * guard every operation runs first (API key, then the catalogue's rules).
 */
import type { QuotaStates } from '../quota';
import type { AnyParams, OperationName, ResultOf } from '../../../protocol/catalogue';
import { OPERATIONS } from '../../../protocol/catalogue';
import type { Store } from '../../store/store';
import { authenticateKey, type KeyScope } from '../access';
import type { AdvertRecords } from '../advertRecords';
import type { RequestContext } from '../context';
import { checkRules } from '../params';
import { readParams, type OperationParams } from '../paramReader';

/** The handler of one operation, over parameters already decoded by a binding. */
export type OperationHandler<O extends OperationName> = (params: AnyParams, ctx: RequestContext) => ResultOf<O>;

/** One synchronous handler per operation. */
export type OperationHandlers = { [O in OperationName]: OperationHandler<O> };

/** The part of the table a handler module provides. */
export type HandlersFor<O extends OperationName> = Pick<OperationHandlers, O>;

/** What handler modules are built from. */
export interface HandlerDeps {
	store: Store;
	/** Largest RowsPerPage accepted. */
	maxPageSize: number;
	/** Lifetime of GetLoginURL tokens. */
	loginUrlTtlMs: number;
	/** Advert records kept by row (shared by every advert search). */
	advertRecords: AdvertRecords;
	/** Quota states held by failure scenarios, seen by every read and check of quota use. */
	quotaStates?: QuotaStates;
}

/** An operation's own work, after the guard: typed parameters, the request and the key's scope. */
export type Handler<O extends OperationName> = (
	params: OperationParams<O>,
	ctx: RequestContext,
	key: KeyScope,
) => ResultOf<O>;

/** Every operation: API key first, then the catalogue's rules, then the operation itself. */
export function guarded<O extends OperationName>(store: Store, operation: O, handler: Handler<O>): OperationHandler<O> {
	const rules = OPERATIONS[operation].rules;
	return (params: AnyParams, ctx: RequestContext): ResultOf<O> => {
		const reader = readParams(params);
		const key = authenticateKey(store, reader);
		checkRules(rules, params);
		return handler(reader, ctx, key);
	};
}
