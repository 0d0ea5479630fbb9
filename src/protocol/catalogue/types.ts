/**
 * The shapes of the declarative catalogue. Everything else (bindings, WSDL, client, emulator dispatch,
 * playground forms) reads these, so an operation or record is described exactly once.
 */

/** The two endpoints of the service (spec "What the service does"). */
export type Endpoint = 'posting' | 'administration';

/** XML Schema scalar types used by the spec's records. */
export type ScalarType =
	| 'string'
	| 'int'
	| 'short'
	| 'unsignedByte'
	| 'decimal'
	| 'boolean'
	| 'dateTime'
	| 'base64Binary';

/** Parameter types: spec transport rules 3, 5 and 7 (everything is a string unless stated). */
export type ParamType = 'string' | 'int' | 'boolean' | 'string[]';

/**
 * The text a string parameter holds, parsed and checked by src/protocol/rules (the one interpretation
 * used by the client, the sandbox and the playground).
 */
export type ParamFormat =
	/** A whole number (32-bit), within the parameter's `range`. */
	| 'integer'
	/** A positive 32-bit id (AdvertID, AdvertCandidateID, PostingID). */
	| 'id'
	/** A non-negative decimal, at most 12 digits and 4 decimals (salaries). */
	| 'decimal'
	/** true, false, 1 or 0 (any case). */
	| 'boolean'
	/** A date and time: yyyy-MM-d HH:mm:ss, ISO 8601 or dd/MM/yyyy (UTC). */
	| 'dateTime'
	/** Comma-separated values; with a closed value set, each one of it (names or codes). */
	| 'csv'
	/** Comma-separated whole numbers. */
	| 'integerCsv'
	/** An absolute http or https URL. */
	| 'url'
	| 'email'
	/** A 3-letter ISO 4217 code (any case). */
	| 'currency'
	/** A path on the service: starts with one '/'. */
	| 'localPath'
	/** A numeric id or a string identifier (anything non-blank). */
	| 'idOrIdentifier';

/** Parameters the client fills from the connection's credentials and preferences. */
export type ParamRole = 'apiKey' | 'username' | 'password' | 'culture';

export interface ParamSpec {
	readonly name: string;
	readonly type: ParamType;
	readonly doc?: string;
	readonly format?: ParamFormat;
	/** Name of a value set in valueSets.ts offered as choices. */
	readonly valueSet?: string;
	readonly role?: ParamRole;
	/** Value sent when the caller gives none (value-type parameters are minOccurs=1 in SOAP). */
	readonly default?: string | number | boolean;
	/** For SOAP, the element name of the items of a list parameter (rule 3: `string`). */
	readonly itemElement?: string;
	/** Bounds of an int or integer parameter. */
	readonly range?: { readonly min?: number; readonly max?: number };
	/** RowsPerPage: at most the service's page size limit (500 by default). */
	readonly pageSize?: boolean;
	/** Most characters the text may have. */
	readonly maxLength?: number;
}

/** How a field's value is written. */
export type FieldType =
	| ScalarType
	| { readonly record: string }
	| { readonly list: string; readonly item: string }
	| { readonly scalarList: ScalarType; readonly item: string };

export interface FieldSpec {
	readonly name: string;
	readonly type: FieldType;
	/** Written as an XML attribute of the record element (document objects). */
	readonly attribute?: boolean;
	/** Written with xsi:nil="true" when absent (spec transport rule 6). */
	readonly nillable?: boolean;
	readonly doc?: string;
}

export interface RecordSpec {
	readonly doc: string;
	readonly fields: readonly FieldSpec[];
}

/** The result of an operation: one record or a list of records. */
export type ResultSpec =
	| { readonly kind: 'record'; readonly record: string }
	| { readonly kind: 'list'; readonly record: string };

export interface OperationSpec {
	readonly endpoint: Endpoint;
	readonly doc: string;
	readonly params: readonly ParamSpec[];
	readonly result: ResultSpec;
	/**
	 * The element inside `<Operation>Response` in SOAP. Usually `<Operation>Result`; for the paged
	 * operations it is the wrapper itself (transport rule 1).
	 */
	readonly soapResult: string;
	/** Root element of the HTTP GET and POST response (rule 2: ArrayOf<Record> for lists). */
	readonly httpRoot: string;
	/** Paged operations: the wrapper's list field, iterated by the client's pager. */
	readonly pagedList?: string;
	/** Rules the spec states, checked before sending and by the emulator. */
	readonly rules?: readonly OperationRule[];
	/**
	 * The operation changes the account's data (creates or posts an advert, scores, progresses, tags or
	 * notes an application): a comparison sends it to a second, possibly live, service only when asked.
	 */
	readonly changesData?: boolean;
}

/** Machine-checkable rules from the spec's "Limits" and operation texts. */
export type OperationRule =
	| { readonly kind: 'minLength'; readonly param: string; readonly min: number; readonly message: string }
	| { readonly kind: 'required'; readonly params: readonly string[]; readonly message: string }
	/** One of the parameters must be given; `subcode` of the fault, MissingFilter by default. */
	| {
			readonly kind: 'anyOf';
			readonly params: readonly string[];
			readonly message: string;
			readonly subcode?: 'MissingFilter' | 'MissingParameter';
	  }
	/** When both are given, `first` must not be greater than `second` (numbers or dates). */
	| { readonly kind: 'order'; readonly first: string; readonly second: string; readonly message: string };
