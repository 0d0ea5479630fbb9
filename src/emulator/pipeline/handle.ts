/** Step 6 of the pipeline: call the domain handler of the operation with the decoded parameters. */
import type { AnyParams, OperationName } from '../../protocol/catalogue';
import type { RequestContext } from '../domain/context';
import type { OperationHandlers } from '../domain/handlers';

/** Runs the handler; caller errors come back as thrown FaultErrors, anything else is internal. */
export function invokeHandler(
	handlers: OperationHandlers,
	operation: OperationName,
	params: AnyParams,
	ctx: RequestContext,
): unknown {
	const handler = handlers[operation] as (params: AnyParams, ctx: RequestContext) => unknown;
	return handler(params, ctx);
}
