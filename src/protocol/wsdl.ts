/**
 * WSDL 1.1 of an endpoint, generated from the catalogue in the shape ASP.NET ASMX publishes:
 * document/literal wrapped, one schema, four bindings (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST) and
 * one service with four ports. Pure: text in, text out.
 */
import {
	OPERATIONS,
	getRecord,
	operationsOf,
	soapAction,
	type Endpoint,
	type FieldSpec,
	type OperationSpec,
	type ParamSpec,
	type ScalarType,
} from './catalogue';
import { isValueType } from './codecs/records';
import { escapeAttr, escapeText, parseXml, type XmlElement } from './codecs/xml';

/** Where the WSDL's messages live and where its ports point. */
export interface WsdlOptions {
	/** The XML namespace of all messages (targetNamespace). */
	namespace: string;
	/** Absolute URL of the endpoint, written into the four port addresses. */
	location: string;
	/** Name of the service and prefix of its port types; defaults from the location's document name. */
	serviceName?: string;
}

const NS = {
	wsdl: 'http://schemas.xmlsoap.org/wsdl/',
	soap: 'http://schemas.xmlsoap.org/wsdl/soap/',
	soap12: 'http://schemas.xmlsoap.org/wsdl/soap12/',
	http: 'http://schemas.xmlsoap.org/wsdl/http/',
	mime: 'http://schemas.xmlsoap.org/wsdl/mime/',
	tm: 'http://microsoft.com/wsdl/mime/textMatching/',
	soapenc: 'http://schemas.xmlsoap.org/soap/encoding/',
	s: 'http://www.w3.org/2001/XMLSchema',
	soapHttp: 'http://schemas.xmlsoap.org/soap/http',
} as const;

/** Prefix of the AbstractTypes namespace (ASMX numbers its extra schemas s1, s2, …). */
const ABSTRACT_PREFIX = 's1';

const DEFAULT_SERVICE_NAMES: Readonly<Record<Endpoint, string>> = {
	posting: 'Posting',
	administration: 'Administration',
};

/** The ASMX service name: the document name of the endpoint path (Posting.asmx -> Posting) when it is a plain name. */
export function serviceNameOf(endpoint: Endpoint, location: string): string {
	const match = /\/([A-Za-z_][A-Za-z0-9_]*)\.asmx\/?(?:[?#].*)?$/i.exec(location);
	return match ? match[1] : DEFAULT_SERVICE_NAMES[endpoint];
}

/** Collects named complex types and global elements once each, in first-use order. */
class SchemaBuilder {
	private readonly types = new Map<string, string>();
	private readonly globals = new Map<string, string>();
	private readonly elements: string[] = [];

	addElement(xml: string): void {
		this.elements.push(xml);
	}

	addGlobal(name: string, type: string): void {
		this.globals.set(
			name,
			`<s:element name="${escapeAttr(name)}" nillable="true" type="tns:${escapeAttr(type)}" />`,
		);
	}

	/** Registers a complex type; `body` is built lazily so recursive records terminate. */
	ensureType(name: string, body: () => string): void {
		if (this.types.has(name)) return;
		this.types.set(name, '');
		this.types.set(name, `<s:complexType name="${escapeAttr(name)}">${body()}</s:complexType>`);
	}

	toXml(namespace: string): string {
		return (
			`<s:schema elementFormDefault="qualified" targetNamespace="${escapeAttr(namespace)}">` +
			this.elements.join('') +
			[...this.types.values()].join('') +
			[...this.globals.values()].join('') +
			'</s:schema>'
		);
	}
}

function arrayOfScalar(schema: SchemaBuilder, scalar: ScalarType, item: string): string {
	const typeName = `ArrayOf${item.charAt(0).toUpperCase()}${item.slice(1)}`;
	schema.ensureType(typeName, () => {
		// Known facts: items are minOccurs=0; nillable except value types (ArrayOfInt's int items).
		const nillable = isValueType(scalar) ? '' : ' nillable="true"';
		return `<s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="${escapeAttr(item)}"${nillable} type="s:${scalar}" /></s:sequence>`;
	});
	return typeName;
}

function arrayOfRecord(schema: SchemaBuilder, record: string, item: string): string {
	const typeName = `ArrayOf${item}`;
	schema.ensureType(typeName, () => {
		recordType(schema, record);
		return `<s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="${escapeAttr(item)}" nillable="true" type="tns:${escapeAttr(record)}" /></s:sequence>`;
	});
	return typeName;
}

function fieldElement(schema: SchemaBuilder, field: FieldSpec): string {
	const nillable = field.nillable ? ' nillable="true"' : '';
	const type = field.type;
	if (typeof type === 'string') {
		const min = isValueType(type) ? '1' : '0';
		return `<s:element minOccurs="${min}" maxOccurs="1" name="${escapeAttr(field.name)}"${nillable} type="s:${type}" />`;
	}
	let typeName: string;
	if ('record' in type) {
		typeName = recordType(schema, type.record);
	} else if ('list' in type) {
		typeName = arrayOfRecord(schema, type.list, type.item);
	} else {
		typeName = arrayOfScalar(schema, type.scalarList, type.item);
	}
	return `<s:element minOccurs="0" maxOccurs="1" name="${escapeAttr(field.name)}"${nillable} type="tns:${escapeAttr(typeName)}" />`;
}

/** The complex type of a record: element fields in order, then attribute fields. */
function recordType(schema: SchemaBuilder, record: string): string {
	schema.ensureType(record, () => {
		const fields = getRecord(record).fields;
		const elements = fields
			.filter((f) => !f.attribute)
			.map((f) => fieldElement(schema, f))
			.join('');
		const attributes = fields
			.filter((f) => f.attribute)
			.map(
				(f) =>
					`<s:attribute name="${escapeAttr(f.name)}" type="s:${typeof f.type === 'string' ? f.type : 'string'}" />`,
			)
			.join('');
		return `<s:sequence>${elements}</s:sequence>${attributes}`;
	});
	return record;
}

function paramElement(schema: SchemaBuilder, param: ParamSpec): string {
	const name = escapeAttr(param.name);
	switch (param.type) {
		case 'int':
		case 'boolean':
			return `<s:element minOccurs="1" maxOccurs="1" name="${name}" type="s:${param.type}" />`;
		case 'string[]':
			return `<s:element minOccurs="0" maxOccurs="1" name="${name}" type="tns:${arrayOfScalar(schema, 'string', param.itemElement ?? 'string')}" />`;
		default:
			return `<s:element minOccurs="0" maxOccurs="1" name="${name}" type="s:string" />`;
	}
}

/** The type of an operation's result: the record, or ArrayOf<Record> for lists (transport rule 2). */
function resultType(schema: SchemaBuilder, op: OperationSpec): string {
	return op.result.kind === 'list'
		? arrayOfRecord(schema, op.result.record, op.result.record)
		: recordType(schema, op.result.record);
}

function addOperationTypes(schema: SchemaBuilder, name: string, op: OperationSpec): void {
	const params = op.params.map((p) => paramElement(schema, p)).join('');
	schema.addElement(
		`<s:element name="${escapeAttr(name)}"><s:complexType><s:sequence>${params}</s:sequence></s:complexType></s:element>`,
	);
	const type = resultType(schema, op);
	schema.addElement(
		`<s:element name="${escapeAttr(name)}Response"><s:complexType><s:sequence>` +
			`<s:element minOccurs="0" maxOccurs="1" name="${escapeAttr(op.soapResult)}" type="tns:${escapeAttr(type)}" />` +
			'</s:sequence></s:complexType></s:element>',
	);
	// HTTP GET and POST answer with this element as the document root.
	schema.addGlobal(op.httpRoot, type);
}

/**
 * The namespace of ASMX's abstract types (StringArray) of the HTTP GET/POST messages: the service
 * namespace followed by `AbstractTypes` (with a slash between them when the namespace has none).
 */
export function abstractTypesNamespace(namespace: string): string {
	return `${namespace}${namespace.endsWith('/') ? '' : '/'}AbstractTypes`;
}

/** The second schema ASMX writes when a GET/POST parameter is a list: StringArray, a SOAP-encoded array. */
function abstractTypesSchema(namespace: string): string {
	return (
		`<s:schema targetNamespace="${escapeAttr(abstractTypesNamespace(namespace))}">` +
		`<s:import namespace="${NS.soapenc}" />` +
		'<s:complexType name="StringArray"><s:complexContent mixed="false"><s:restriction base="soapenc:Array">' +
		'<s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="String" type="s:string" /></s:sequence>' +
		'</s:restriction></s:complexContent></s:complexType></s:schema>'
	);
}

function messages(name: string, op: OperationSpec): string {
	const n = escapeAttr(name);
	// HTTP parameters travel as text (transport rule 5): s:string, and lists (repeated fields, rule 3)
	// StringArray of the AbstractTypes schema, as ASMX types them.
	const parts = op.params
		.map(
			(p) =>
				`<wsdl:part name="${escapeAttr(p.name)}" type="${p.type === 'string[]' ? `${ABSTRACT_PREFIX}:StringArray` : 's:string'}" />`,
		)
		.join('');
	const body = `<wsdl:part name="Body" element="tns:${escapeAttr(op.httpRoot)}" />`;
	return (
		`<wsdl:message name="${n}SoapIn"><wsdl:part name="parameters" element="tns:${n}" /></wsdl:message>` +
		`<wsdl:message name="${n}SoapOut"><wsdl:part name="parameters" element="tns:${n}Response" /></wsdl:message>` +
		`<wsdl:message name="${n}HttpGetIn">${parts}</wsdl:message>` +
		`<wsdl:message name="${n}HttpGetOut">${body}</wsdl:message>` +
		`<wsdl:message name="${n}HttpPostIn">${parts}</wsdl:message>` +
		`<wsdl:message name="${n}HttpPostOut">${body}</wsdl:message>`
	);
}

function portType(portName: string, suffix: 'Soap' | 'HttpGet' | 'HttpPost', names: readonly string[]): string {
	const ops = names.map((name) => {
		const n = escapeAttr(name);
		return (
			`<wsdl:operation name="${n}"><wsdl:documentation xmlns:wsdl="${NS.wsdl}">${escapeText(OPERATIONS[name as keyof typeof OPERATIONS].doc)}</wsdl:documentation>` +
			`<wsdl:input message="tns:${n}${suffix}In" /><wsdl:output message="tns:${n}${suffix}Out" /></wsdl:operation>`
		);
	});
	return `<wsdl:portType name="${escapeAttr(portName)}${suffix}">${ops.join('')}</wsdl:portType>`;
}

function soapBinding(service: string, version: 'soap' | 'soap12', namespace: string, names: readonly string[]): string {
	const bindingName = `${service}${version === 'soap' ? 'Soap' : 'Soap12'}`;
	const ops = names.map(
		(name) =>
			`<wsdl:operation name="${escapeAttr(name)}">` +
			`<${version}:operation soapAction="${escapeAttr(soapAction(namespace, name))}" style="document" />` +
			`<wsdl:input><${version}:body use="literal" /></wsdl:input>` +
			`<wsdl:output><${version}:body use="literal" /></wsdl:output></wsdl:operation>`,
	);
	// ASMX binds SOAP 1.2 to the same port type as SOAP 1.1.
	return (
		`<wsdl:binding name="${escapeAttr(bindingName)}" type="tns:${escapeAttr(service)}Soap">` +
		`<${version}:binding transport="${NS.soapHttp}" />${ops.join('')}</wsdl:binding>`
	);
}

function httpBinding(service: string, verb: 'GET' | 'POST', names: readonly string[]): string {
	const suffix = verb === 'GET' ? 'HttpGet' : 'HttpPost';
	const input = verb === 'GET' ? '<http:urlEncoded />' : '<mime:content type="application/x-www-form-urlencoded" />';
	const ops = names.map(
		(name) =>
			`<wsdl:operation name="${escapeAttr(name)}"><http:operation location="/${escapeAttr(name)}" />` +
			`<wsdl:input>${input}</wsdl:input><wsdl:output><mime:mimeXml part="Body" /></wsdl:output></wsdl:operation>`,
	);
	return (
		`<wsdl:binding name="${escapeAttr(service)}${suffix}" type="tns:${escapeAttr(service)}${suffix}">` +
		`<http:binding verb="${verb}" />${ops.join('')}</wsdl:binding>`
	);
}

/**
 * The WSDL 1.1 document of an endpoint, generated entirely from the catalogue. SOAPAction is the
 * namespace followed by the operation name; ports are named <Service>Soap, <Service>Soap12,
 * <Service>HttpGet and <Service>HttpPost as ASMX names them.
 */
export function generateWsdl(endpoint: Endpoint, options: WsdlOptions): string {
	const { namespace, location } = options;
	const service = options.serviceName ?? serviceNameOf(endpoint, location);
	const names = operationsOf(endpoint);
	const schema = new SchemaBuilder();
	for (const name of names) addOperationTypes(schema, name, OPERATIONS[name]);
	const loc = escapeAttr(location);
	const svc = escapeAttr(service);
	const lists = names.some((name) => OPERATIONS[name].params.some((p) => p.type === 'string[]'));
	const abstractNs = lists ? ` xmlns:${ABSTRACT_PREFIX}="${escapeAttr(abstractTypesNamespace(namespace))}"` : '';
	return (
		'<?xml version="1.0" encoding="utf-8"?>\n' +
		`<wsdl:definitions xmlns:soap="${NS.soap}" xmlns:tm="${NS.tm}" xmlns:soapenc="${NS.soapenc}" xmlns:mime="${NS.mime}"` +
		` xmlns:tns="${escapeAttr(namespace)}" xmlns:s="${NS.s}" xmlns:soap12="${NS.soap12}" xmlns:http="${NS.http}"` +
		`${abstractNs} targetNamespace="${escapeAttr(namespace)}" xmlns:wsdl="${NS.wsdl}">` +
		`<wsdl:types>${schema.toXml(namespace)}${lists ? abstractTypesSchema(namespace) : ''}</wsdl:types>` +
		names.map((name) => messages(name, OPERATIONS[name])).join('') +
		portType(service, 'Soap', names) +
		portType(service, 'HttpGet', names) +
		portType(service, 'HttpPost', names) +
		soapBinding(service, 'soap', namespace, names) +
		soapBinding(service, 'soap12', namespace, names) +
		httpBinding(service, 'GET', names) +
		httpBinding(service, 'POST', names) +
		`<wsdl:service name="${svc}">` +
		`<wsdl:port name="${svc}Soap" binding="tns:${svc}Soap"><soap:address location="${loc}" /></wsdl:port>` +
		`<wsdl:port name="${svc}Soap12" binding="tns:${svc}Soap12"><soap12:address location="${loc}" /></wsdl:port>` +
		`<wsdl:port name="${svc}HttpGet" binding="tns:${svc}HttpGet"><http:address location="${loc}" /></wsdl:port>` +
		`<wsdl:port name="${svc}HttpPost" binding="tns:${svc}HttpPost"><http:address location="${loc}" /></wsdl:port>` +
		'</wsdl:service></wsdl:definitions>'
	);
}

/**
 * The service namespace a WSDL declares (the targetNamespace of its definitions), so a client can
 * learn it from the service; undefined when the text is not a WSDL.
 */
export function targetNamespaceOf(wsdl: string | Uint8Array): string | undefined {
	let root: XmlElement;
	try {
		root = parseXml(wsdl);
	} catch {
		return undefined;
	}
	if (root.local !== 'definitions' || root.ns !== NS.wsdl) return undefined;
	const namespace = root.attrs.find((attr) => attr.ns === '' && attr.local === 'targetNamespace')?.value;
	return namespace && namespace.length > 0 ? namespace : undefined;
}
