/**
 * The typed client: one method per operation, generated from the catalogue, over undici. It fills
 * credentials, validates before sending, maps every failure to a MultipostingError and captures the
 * exact bytes of each exchange for the traffic log.
 */
import { Agent, type Dispatcher } from 'undici';
import { getBinding } from '../protocol/bindings/index';
import { BINDING_NAMES, ProtocolError, type BindingName, type CodecContext } from '../protocol/bindings/types';
import type { ADMINISTRATION_OPERATIONS } from '../protocol/catalogue/administration';
import type { POSTING_OPERATIONS } from '../protocol/catalogue/posting';
import {
	DEFAULT_ENDPOINT_PATHS,
	OPERATIONS,
	OPERATION_NAMES,
	defaultNamespace,
	isOperationName,
	type AnyParams,
	type Endpoint,
	type OperationName,
	type PagedListName,
	type PagedOperationName,
	type ParamRole,
	type ParamsOf,
	type ResultOf,
} from '../protocol/catalogue';
import type { Fault } from '../protocol/faults';
import {
	AbortedError,
	HttpStatusError,
	InvalidArgumentError,
	MultipostingError,
	NetworkError,
	SoapFaultError,
	TimeoutError,
	UnexpectedResponseError,
	ValidationError,
} from './errors';
import { copyExchange, createRedactor, redactExchange, type Exchange, type Redactor } from './exchange';
import { sendRequest, type TransportFailure } from './transport';
import { validateParams } from './validate';

/** Default time budget of one call. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default largest response body accepted: 64 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
const DEFAULT_USER_AGENT = 'multiposting-workbench-client/0.1';
/** Default most pages that pages() and items() fetch in one walk. */
export const DEFAULT_MAX_PAGES = 1000;
/** How much of an unexpected body an HttpStatusError quotes. */
const EXCERPT_CHARS = 500;

/** Credentials and preferences filled into the parameters that carry a `role` in the catalogue. */
export interface Credentials {
	apiKey: string;
	username?: string;
	password?: string;
	culture?: string;
}

/** Options of a MultipostingClient. */
export interface ClientOptions {
	/** The service host address, e.g. https://api.example.com (an optional path prefix is kept). */
	baseUrl: string;
	/** XML namespace of the messages; default defaultNamespace(baseUrl). */
	namespace?: string;
	/** Endpoint paths; default DEFAULT_ENDPOINT_PATHS. */
	paths?: Partial<Record<Endpoint, string>>;
	/** Binding used when a call does not name one; default soap11. */
	binding?: BindingName;
	credentials: Credentials;
	/** Time budget of one call, from sending to the last byte; default 30000. */
	timeoutMs?: number;
	/** Largest response body accepted; default 64 MiB. */
	maxResponseBytes?: number;
	/** An undici dispatcher to use instead of the client's own Agent (not closed by close()). */
	dispatcher?: Dispatcher;
	userAgent?: string;
	/** Receives every exchange, redacted, for the traffic log. Exceptions it throws are ignored. */
	onExchange?: (exchange: Exchange) => void;
}

/** Options of one call. */
export interface CallOptions {
	/** Binding of this call instead of the client's. */
	binding?: BindingName;
	signal?: AbortSignal;
	/** Time budget of this call instead of the client's. */
	timeoutMs?: number;
	/**
	 * Build the Exchange of this call (default true): it goes to onExchange and onto errors as
	 * `.exchange`. false skips both, e.g. for bulk downloads.
	 */
	captureExchange?: boolean;
}

/** Options of callWithExchange. */
export interface CallWithExchangeOptions extends Omit<CallOptions, 'captureExchange'> {
	/** Redact credentials in the returned exchange (default true). Pass false explicitly to see them. */
	redact?: boolean;
}

/** A result together with the exchange that produced it. */
export interface ResultWithExchange<O extends OperationName> {
	result: ResultOf<O>;
	exchange: Exchange;
}

type AllOperations = typeof POSTING_OPERATIONS & typeof ADMINISTRATION_OPERATIONS;
type RoleParamName<O extends OperationName> = Extract<
	AllOperations[O]['params'][number],
	{ readonly role: ParamRole }
>['name'] &
	keyof ParamsOf<O>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The parameters of an operation as the client takes them: credential parameters are optional. */
export type CallParams<O extends OperationName> = Simplify<
	Omit<ParamsOf<O>, RoleParamName<O>> & Partial<Pick<ParamsOf<O>, RoleParamName<O>>>
>;

/** Arguments of an operation method: params may be left out when no parameter is required. */
type MethodArgs<O extends OperationName> =
	object extends CallParams<O>
		? [params?: CallParams<O>, options?: CallOptions]
		: [params: CallParams<O>, options?: CallOptions];

/** One method per operation, named in lowerCamelCase (GetAdvertPaged -> getAdvertPaged). */
export type OperationMethods = {
	[O in OperationName as Uncapitalize<O>]: (...args: MethodArgs<O>) => Promise<ResultOf<O>>;
};

/** The operations the pager supports (derived from the catalogue). */
export type { PagedOperationName };
/** Parameters of a paged search without the paging parameters, which the pager sets. */
export type PageParams<O extends PagedOperationName> = Omit<CallParams<O>, 'CurrentPage' | 'RowsPerPage'>;
/** One item of a paged operation's list (Advert, APIAdvertWithValues, APIApplication). */
export type PageItem<O extends PagedOperationName> =
	NonNullable<ResultOf<O>[PagedListName<O> & keyof ResultOf<O>]> extends readonly (infer I)[] ? I : never;

/** Options of pages() and items(). */
export interface PageOptions {
	/** Page size sent as RowsPerPage. */
	rowsPerPage: number;
	/** First page to fetch (1-based); default 1. */
	startPage?: number;
	/** Most pages fetched, whatever PageCount says; default DEFAULT_MAX_PAGES (1,000). */
	maxPages?: number;
	signal?: AbortSignal;
	binding?: BindingName;
	timeoutMs?: number;
}

/** The lowerCamelCase method name of an operation. */
export function methodName<O extends OperationName>(operation: O): Uncapitalize<O> {
	return (operation.charAt(0).toLowerCase() + operation.slice(1)) as Uncapitalize<O>;
}

/** Internal outcome of one HTTP exchange, before redaction. */
interface CallOutcome {
	result?: unknown;
	error?: MultipostingError;
	/** Present when the exchange was captured. */
	exchange?: { raw: Exchange; redacted: Exchange };
}

/**
 * The client without its generated operation methods. Use MultipostingClient, which has them.
 */
export class MultipostingClientBase {
	readonly baseUrl: string;
	readonly namespace: string;
	readonly paths: Readonly<Record<Endpoint, string>>;
	readonly binding: BindingName;
	readonly timeoutMs: number;
	readonly maxResponseBytes: number;
	private readonly credentials: Credentials;
	private readonly urlPrefix: string;
	private readonly origin: string;
	private readonly userAgent: string;
	/** The connection pool of this client's calls (also used for the playground's raw sends). */
	readonly dispatcher: Dispatcher;
	private readonly ownAgent?: Agent;
	private readonly onExchange?: (exchange: Exchange) => void;
	private closed = false;

	constructor(options: ClientOptions) {
		if (typeof options !== 'object' || options === null) {
			throw new InvalidArgumentError('MultipostingClient needs options with at least baseUrl and credentials.');
		}
		let url: URL;
		try {
			url = new URL(options.baseUrl);
		} catch {
			throw new InvalidArgumentError(
				`baseUrl "${String(options.baseUrl)}" is not a valid URL; give an absolute http or https address such as https://api.example.com.`,
			);
		}
		if (url.protocol !== 'http:' && url.protocol !== 'https:') {
			throw new InvalidArgumentError(`baseUrl must use http or https, not ${url.protocol}`);
		}
		if (url.search || url.hash || url.username || url.password) {
			throw new InvalidArgumentError(
				'baseUrl must not contain a query, a fragment or user information; give the host address only.',
			);
		}
		this.baseUrl = options.baseUrl;
		this.origin = url.origin;
		this.urlPrefix = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
		this.namespace = options.namespace ?? defaultNamespace(options.baseUrl);
		if (typeof this.namespace !== 'string' || this.namespace.length === 0) {
			throw new InvalidArgumentError(
				'namespace must be a non-empty string (the XML namespace URI of the messages).',
			);
		}
		const paths = { ...DEFAULT_ENDPOINT_PATHS, ...options.paths };
		for (const [endpoint, path] of Object.entries(paths)) {
			if (typeof path !== 'string' || !path.startsWith('/')) {
				throw new InvalidArgumentError(
					`paths.${endpoint} must be a path starting with /, e.g. ${DEFAULT_ENDPOINT_PATHS[endpoint as Endpoint]}.`,
				);
			}
		}
		this.paths = Object.freeze(paths);
		this.binding = checkBinding(options.binding ?? 'soap11');
		const credentials = options.credentials as Credentials | undefined;
		if (typeof credentials !== 'object' || credentials === null || typeof credentials.apiKey !== 'string') {
			throw new InvalidArgumentError('credentials.apiKey must be a string (the API key of the organisation).');
		}
		for (const key of ['username', 'password', 'culture'] as const) {
			if (credentials[key] !== undefined && typeof credentials[key] !== 'string') {
				throw new InvalidArgumentError(`credentials.${key} must be a string when given.`);
			}
		}
		this.credentials = { ...credentials };
		this.timeoutMs = checkPositiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
		this.maxResponseBytes = checkPositiveInteger(
			'maxResponseBytes',
			options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
		);
		this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
		if (options.onExchange !== undefined && typeof options.onExchange !== 'function') {
			throw new InvalidArgumentError('onExchange must be a function.');
		}
		this.onExchange = options.onExchange;
		if (options.dispatcher) {
			this.dispatcher = options.dispatcher;
		} else {
			this.ownAgent = new Agent({
				keepAliveTimeout: 10_000,
				keepAliveMaxTimeout: 60_000,
				headersTimeout: this.timeoutMs,
				bodyTimeout: this.timeoutMs,
				maxResponseSize: this.maxResponseBytes,
				connect: { timeout: Math.min(this.timeoutMs, 10_000) },
			});
			this.dispatcher = this.ownAgent;
		}
	}

	/** Calls an operation by name. Throws a MultipostingError subclass on any failure. */
	async call<O extends OperationName>(
		operation: O,
		params: CallParams<O>,
		options: CallOptions = {},
	): Promise<ResultOf<O>> {
		const outcome = await this.execute(
			operation,
			params as AnyParams,
			options,
			options.captureExchange !== false,
			false,
		);
		if (outcome.error) {
			outcome.error.exchange = outcome.exchange?.redacted;
			throw outcome.error;
		}
		return outcome.result as ResultOf<O>;
	}

	/**
	 * Calls an operation and returns the result with its exchange, redacted unless `redact: false`
	 * is passed. onExchange still receives the redacted form.
	 */
	async callWithExchange<O extends OperationName>(
		operation: O,
		params: CallParams<O>,
		options: CallWithExchangeOptions = {},
	): Promise<ResultWithExchange<O>> {
		const outcome = await this.execute(operation, params as AnyParams, options, true, true);
		const exchange = options.redact === false ? outcome.exchange?.raw : outcome.exchange?.redacted;
		if (outcome.error) {
			if (exchange) {
				outcome.error.exchange = exchange;
			}
			throw outcome.error;
		}
		if (!exchange) {
			throw new Error('Internal error: no exchange was captured.');
		}
		return { result: outcome.result as ResultOf<O>, exchange };
	}

	/**
	 * The pages of a paged search, from startPage to the PageCount of the first page. A service cannot
	 * make this loop run away: it stops at an empty page (which is still yielded), at a page whose
	 * items repeat a page already seen (not yielded: the service ignores CurrentPage), and after
	 * maxPages pages.
	 */
	async *pages<O extends PagedOperationName>(
		operation: O,
		params: PageParams<O>,
		options: PageOptions,
	): AsyncIterableIterator<ResultOf<O>> {
		const listName = OPERATIONS[operation]?.pagedList;
		if (!listName) {
			throw new InvalidArgumentError(
				`${String(operation)} is not a paged operation; use GetAdvertPaged, GetAdvertWithValuesPaged or GetApplicationsPaged.`,
			);
		}
		const {
			rowsPerPage: rows,
			startPage: start = 1,
			maxPages: most = DEFAULT_MAX_PAGES,
			signal,
			binding,
			timeoutMs,
		} = options ?? ({} as Partial<PageOptions>);
		const rowsPerPage = checkPositiveInteger('rowsPerPage', rows);
		const startPage = checkPositiveInteger('startPage', start);
		const maxPages = checkPositiveInteger('maxPages', most);
		const callOptions: CallOptions = { signal, binding, timeoutMs };
		const seen = new Set<string>();
		// Fixed by the first page, so a service that keeps raising PageCount cannot make this loop forever.
		let lastPage: number | undefined;
		for (
			let page = startPage;
			page - startPage < maxPages && (lastPage === undefined || page <= lastPage);
			page += 1
		) {
			const pageParams = { ...params, CurrentPage: page, RowsPerPage: rowsPerPage } as unknown as CallParams<O>;
			const result = await this.call(operation, pageParams, callOptions);
			const fields = result as { PageCount?: unknown } & Record<string, unknown>;
			if (lastPage === undefined) {
				lastPage =
					typeof fields.PageCount === 'number' && Number.isInteger(fields.PageCount)
						? fields.PageCount
						: page;
			}
			const list = fields[listName];
			const key = pageKey(list);
			if (key !== undefined) {
				if (seen.has(key)) {
					return;
				}
				seen.add(key);
			}
			yield result;
			if (!Array.isArray(list) || list.length === 0) {
				return;
			}
		}
	}

	/** The items of a paged search across its pages (see pages()). */
	async *items<O extends PagedOperationName>(
		operation: O,
		params: PageParams<O>,
		options: PageOptions,
	): AsyncIterableIterator<PageItem<O>> {
		const listName = OPERATIONS[operation]?.pagedList ?? '';
		for await (const page of this.pages(operation, params, options)) {
			const list = (page as Record<string, unknown>)[listName];
			if (Array.isArray(list)) {
				yield* list as PageItem<O>[];
			}
		}
	}

	/** Closes the client's own connection pool (not a dispatcher passed in options). Idempotent. */
	async close(): Promise<void> {
		if (this.closed) {
			return;
		}
		this.closed = true;
		await this.ownAgent?.close();
	}

	private async execute(
		operation: OperationName,
		params: AnyParams,
		options: CallOptions,
		capture: boolean,
		returnsExchange: boolean,
	): Promise<CallOutcome> {
		if (!isOperationName(operation)) {
			throw new InvalidArgumentError(`${String(operation)} is not an operation of the service.`);
		}
		if (this.closed) {
			throw new InvalidArgumentError(`${operation} was called after close(); create a new MultipostingClient.`);
		}
		const bindingName = checkBinding(options.binding ?? this.binding);
		const timeoutMs = checkPositiveInteger('timeoutMs', options.timeoutMs ?? this.timeoutMs);
		if (options.signal?.aborted) {
			throw new AbortedError(operation, { cause: options.signal.reason });
		}
		const filled = this.fillParams(operation, params ?? {});
		const issues = validateParams(operation, filled);
		if (issues.length > 0) {
			throw new ValidationError(operation, issues);
		}
		const redactor = rememberLastBytes(createRedactor(this.secretsOf(filled)));
		const binding = getBinding(bindingName);
		const ctx: CodecContext = {
			namespace: this.namespace,
			endpointPath: this.paths[OPERATIONS[operation].endpoint],
		};
		let encoded;
		try {
			encoded = binding.encodeRequest(operation, filled, ctx);
		} catch (error) {
			throw new InvalidArgumentError(
				`${operation} could not be encoded for ${bindingName}: ${redactor.text(error instanceof Error ? error.message : String(error))}`,
			);
		}
		const url = `${this.urlPrefix}${encoded.path}`;
		const headers: Record<string, string> = { ...encoded.headers, 'user-agent': this.userAgent };
		const exchange: Exchange = {
			operation,
			binding: bindingName,
			request: { method: encoded.method, url, headers, body: encoded.body },
			timings: { startedAt: Date.now(), totalMs: 0 },
		};
		const started = performance.now();
		const outcome: CallOutcome = {};
		try {
			outcome.result = await this.exchangeOnce(
				operation,
				binding.name,
				ctx,
				exchange,
				timeoutMs,
				options.signal,
				redactor,
			);
		} catch (error) {
			outcome.error =
				error instanceof MultipostingError ? error : new NetworkError(operation, this.origin, error);
			exchange.error = outcome.error.message;
		}
		exchange.timings.totalMs = performance.now() - started;
		if (capture) {
			// Redacted once; the redactor hands back the body it already redacted for an error.
			const redacted = redactExchange(exchange, redactor);
			outcome.exchange = { raw: exchange, redacted };
			if (this.onExchange) {
				try {
					// A copy when the caller gets the exchange too (with the result or on the error), so a
					// listener cannot alter it; otherwise nobody else holds it, and megabytes are not copied.
					this.onExchange(returnsExchange || outcome.error ? copyExchange(redacted) : redacted);
				} catch {
					// A faulty listener must not break the call.
				}
			}
		}
		return outcome;
	}

	/** Sends one request and reads its response; throws MultipostingErrors. */
	private async exchangeOnce(
		operation: OperationName,
		bindingName: BindingName,
		ctx: CodecContext,
		exchange: Exchange,
		timeoutMs: number,
		signal: AbortSignal | undefined,
		redactor: Redactor,
	): Promise<unknown> {
		const sent = await sendRequest(exchange.request, {
			timeoutMs,
			signal,
			maxBodyBytes: this.maxResponseBytes,
			dispatcher: this.dispatcher,
		});
		if (sent.headersMs !== undefined) {
			exchange.timings.headersMs = sent.headersMs;
		}
		if (sent.response) {
			exchange.response = sent.response;
		}
		if (sent.failure) {
			throw this.failure(operation, sent.failure, exchange, timeoutMs, redactor);
		}
		return this.interpret(operation, bindingName, ctx, sent.response!, redactor);
	}

	/** The typed error of a transport failure. */
	private failure(
		operation: OperationName,
		failure: TransportFailure,
		exchange: Exchange,
		timeoutMs: number,
		redactor: Redactor,
	): MultipostingError {
		switch (failure.kind) {
			case 'timeout':
				return new TimeoutError(operation, timeoutMs, { cause: failure.cause });
			case 'aborted':
				return new AbortedError(operation, { cause: failure.reason });
			case 'too-large':
				return this.tooLarge(operation, exchange, redactor, failure.cause);
			case 'network':
				return new NetworkError(operation, this.origin, failure.cause);
			case 'body': {
				const body = exchange.response?.body ?? new Uint8Array(0);
				return new UnexpectedResponseError(
					operation,
					'TRUNCATED',
					`the connection failed after ${body.length} bytes of the body (${describeError(failure.cause)})`,
					redactor.bytes(body),
					exchange.response?.status,
					{ cause: failure.cause },
				);
			}
		}
	}

	/** Turns a complete response into a result or the matching error. */
	private interpret(
		operation: OperationName,
		bindingName: BindingName,
		ctx: CodecContext,
		response: NonNullable<Exchange['response']>,
		redactor: Redactor,
	): unknown {
		const { status, headers, body } = response;
		const success = status >= 200 && status < 300;
		// Only a prefix of the body is ever turned into text here: the decoder reads the bytes.
		const excerpt = (): string => redactor.excerpt(body, EXCERPT_CHARS);
		if (status >= 300 && status < 400) {
			throw new HttpStatusError(
				operation,
				status,
				excerpt(),
				redactor.text(headers.location ?? '(no Location header)'),
			);
		}
		const contentType = (headers['content-type'] ?? '').toLowerCase();
		const html = /text\/html|application\/xhtml/.test(contentType) || looksLikeHtml(body);
		// 500 is how SOAP faults and GET/POST errors come back; other failures are only faults when XML.
		const mayBeFault = status === 500 || (!html && /xml/.test(contentType));
		if (!success && (html || !mayBeFault)) {
			throw new HttpStatusError(operation, status, excerpt());
		}
		if (html) {
			throw new UnexpectedResponseError(
				operation,
				'HTML_PAGE',
				`HTTP ${status} carried an HTML page instead of XML ("${firstLine(excerpt())}")`,
				redactor.bytes(body),
				status,
			);
		}
		if (success && body.length === 0) {
			throw new UnexpectedResponseError(
				operation,
				'EMPTY_BODY',
				`HTTP ${status} had an empty body`,
				body,
				status,
			);
		}
		let decoded;
		try {
			decoded = getBinding(bindingName).decodeResponse(operation, { status, headers, body }, ctx);
		} catch (error) {
			if (!success) {
				throw new HttpStatusError(operation, status, excerpt(), undefined, { cause: error });
			}
			const reason = error instanceof ProtocolError ? error.reason : 'INVALID_VALUE';
			throw new UnexpectedResponseError(
				operation,
				reason,
				redactor.text(describeError(error)),
				redactor.bytes(body),
				status,
				{ cause: error },
			);
		}
		if (!decoded.ok) {
			throw new SoapFaultError(operation, redactFault(decoded.fault, redactor), decoded.status ?? status);
		}
		if (!success) {
			throw new HttpStatusError(operation, status, excerpt());
		}
		return decoded.result;
	}

	private tooLarge(
		operation: OperationName,
		exchange: Exchange,
		redactor: Redactor,
		cause?: unknown,
	): UnexpectedResponseError {
		return new UnexpectedResponseError(
			operation,
			'TOO_LARGE',
			`the response body exceeds maxResponseBytes (${this.maxResponseBytes} bytes); raise maxResponseBytes or narrow the request (smaller pages, fewer documents)`,
			redactor.bytes(exchange.response?.body ?? new Uint8Array(0)),
			exchange.response?.status,
			cause === undefined ? {} : { cause },
		);
	}

	/** The caller's parameters plus credentials for role parameters left out, and declared defaults. */
	private fillParams(operation: OperationName, params: AnyParams): AnyParams {
		const filled: AnyParams = { ...params };
		const fromRole: Record<ParamRole, string | undefined> = {
			apiKey: this.credentials.apiKey,
			username: this.credentials.username,
			password: this.credentials.password,
			culture: this.credentials.culture,
		};
		for (const param of OPERATIONS[operation].params) {
			if (filled[param.name] !== undefined) {
				continue;
			}
			const value = param.role ? fromRole[param.role] : param.default;
			if (value !== undefined) {
				filled[param.name] = value;
			}
		}
		return filled;
	}

	private secretsOf(params: AnyParams): string[] {
		const secrets = [this.credentials.apiKey, this.credentials.password];
		for (const param of ['sAPIKey', 'sPassword']) {
			const value = params[param];
			if (typeof value === 'string') {
				secrets.push(value);
			}
		}
		return secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length > 0);
	}
}

/** The typed client: MultipostingClientBase plus one method per operation. */
export type MultipostingClient = MultipostingClientBase & OperationMethods;

/** Creates a client; see ClientOptions. The operation methods are generated from the catalogue. */
export const MultipostingClient = MultipostingClientBase as new (options: ClientOptions) => MultipostingClient;

for (const operation of OPERATION_NAMES) {
	const name = methodName(operation);
	if (name in MultipostingClientBase.prototype) {
		throw new Error(`Operation method ${name} clashes with a MultipostingClient member.`);
	}
	Object.defineProperty(MultipostingClientBase.prototype, name, {
		value: function (this: MultipostingClientBase, params?: AnyParams, options?: CallOptions) {
			return this.call(operation, (params ?? {}) as never, options);
		},
		writable: true,
		configurable: true,
	});
}

function checkBinding(binding: BindingName): BindingName {
	if (!BINDING_NAMES.includes(binding)) {
		throw new InvalidArgumentError(
			`binding "${String(binding)}" is not supported; use one of ${BINDING_NAMES.join(', ')}.`,
		);
	}
	return binding;
}

function checkPositiveInteger(name: string, value: unknown): number {
	if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
		throw new InvalidArgumentError(`${name} must be a positive whole number, got ${String(value)}.`);
	}
	return value;
}

/**
 * A call's redactor that redacts the same body once: a failed call redacts the response body for its
 * error and again for its exchange. Only for one call's own bodies, which nothing modifies.
 */
function rememberLastBytes(redactor: Redactor): Redactor {
	let lastInput: Uint8Array | undefined;
	let lastOutput: Uint8Array | undefined;
	return {
		...redactor,
		bytes: (value) => {
			if (value !== lastInput || lastOutput === undefined) {
				lastInput = value;
				lastOutput = redactor.bytes(value);
			}
			return lastOutput;
		},
	};
}

/**
 * The identity of a page: the ids of its items in order (AdvertCandidateID of an application,
 * AdvertID of an advert, of the advert inside an advert with values); undefined when an item has none.
 */
function pageKey(list: unknown): string | undefined {
	if (!Array.isArray(list) || list.length === 0) {
		return undefined;
	}
	const ids: number[] = [];
	for (const item of list as Record<string, unknown>[]) {
		const id = item?.AdvertCandidateID ?? item?.AdvertID ?? (item?.Advert as Record<string, unknown>)?.AdvertID;
		if (typeof id !== 'number') {
			return undefined;
		}
		ids.push(id);
	}
	return ids.join(',');
}

function redactFault(fault: Fault, redactor: Redactor): Fault {
	const redacted: Fault = { ...fault, message: redactor.text(fault.message) };
	if (fault.detail !== undefined) {
		redacted.detail = redactor.text(fault.detail);
	}
	return redacted;
}

function looksLikeHtml(body: Uint8Array): boolean {
	const head = body.subarray(0, 2048);
	const start = Buffer.from(head.buffer, head.byteOffset, head.byteLength)
		.toString('utf8')
		.slice(0, 512)
		.trimStart()
		.toLowerCase();
	return start.startsWith('<!doctype html') || start.startsWith('<html');
}

function firstLine(text: string): string {
	return text
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, 120);
}

function describeError(error: unknown): string {
	if (error instanceof Error) {
		const code = (error as { code?: unknown }).code;
		return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
	}
	return String(error);
}
