/** The public surface of the typed client. */
export {
	DEFAULT_MAX_PAGES,
	DEFAULT_MAX_RESPONSE_BYTES,
	DEFAULT_TIMEOUT_MS,
	MultipostingClient,
	MultipostingClientBase,
	methodName,
	type CallOptions,
	type CallParams,
	type CallWithExchangeOptions,
	type ClientOptions,
	type Credentials,
	type OperationMethods,
	type PagedOperationName,
	type PageItem,
	type PageOptions,
	type PageParams,
	type ResultWithExchange,
} from './client';
export * from './errors';
export {
	LAZY_REDACTION_BYTES,
	REDACTED,
	SECRET_FIELD_NAMES,
	bodyExcerpt,
	copyExchange,
	createRedactor,
	redactExchange,
	type BodyExcerpt,
	type Exchange,
	type Redactor,
} from './exchange';
export {
	sendRequest,
	type OutgoingRequest,
	type TransportFailure,
	type TransportOptions,
	type TransportResult,
} from './transport';
export { validateParams, type ValidationIssue, type ValidationRule } from './validate';
export { sendPrepared, type Captured, type SendOptions } from './sendPrepared';
export {
	entriesToRun,
	formatExchange,
	runRequestEntries,
	type ExchangeRecord,
	type RequestRunResult,
	type RunOptions,
	type SchemaValidator,
} from './requestFileRunner';
