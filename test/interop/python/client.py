"""zeep or suds client of the conformance run (Debian's python3-zeep, python3-suds).

Usage: client.py zeep|suds <plan.json> <binding>. Calls every operation of the plan in one binding and
prints one JSON line per call (see test/interop/conformance.mjs).
"""
import base64
import datetime
import decimal
import json
import sys

PORTS = {'soap11': 'Soap', 'soap12': 'Soap12', 'httpget': 'HttpGet', 'httppost': 'HttpPost'}
SERVICES = {'posting': 'Posting', 'administration': 'Administration'}


def plain(value):
    if isinstance(value, (decimal.Decimal, datetime.datetime, datetime.date)):
        return str(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    raise TypeError(type(value).__name__)


def args_of(entry, binding):
    """SOAP: the given parameters. HTTP GET/POST: every parameter, empty when not given, since an ASMX
    service refuses a request without one (zeep would leave None out, or send the text None)."""
    http = binding.startswith('http')
    given = entry['params']
    names = entry['order'] if http else list(given)
    items = ((k, given.get(k, '')) for k in names)
    return {k: (v if http or not isinstance(v, list) else {'string': v}) for k, v in items}


SOAP_ENCODING = 'http://schemas.xmlsoap.org/soap/encoding/'
# The part of the SOAP encoding schema an ASMX WSDL uses: the HTTP GET/POST list parameters are
# StringArray, a restriction of soapenc:Array (AbstractTypes schema).
SOAP_ENCODING_SUBSET = f'''<schema xmlns="http://www.w3.org/2001/XMLSchema" targetNamespace="{SOAP_ENCODING}">
<complexType name="Array"><sequence>
<any namespace="##any" minOccurs="0" maxOccurs="unbounded" processContents="lax"/>
</sequence><anyAttribute namespace="##other" processContents="lax"/></complexType></schema>'''.encode()


class Zeep:
    def __init__(self, plan, binding):
        import zeep
        import zeep.helpers
        import zeep.transports

        class OfflineTransport(zeep.transports.Transport):
            # zeep fetches the SOAP encoding schema that an ASMX WSDL imports from the web; this
            # machine is offline, so it gets the subset the WSDL uses.
            def load(self, url):
                if url.rstrip('/') == SOAP_ENCODING.rstrip('/'):
                    return SOAP_ENCODING_SUBSET
                return super().load(url)

        self.helpers = zeep.helpers
        self.clients = {s: zeep.Client(url, transport=OfflineTransport()) for s, url in plan['wsdl'].items()}
        self.binding = binding

    def call(self, entry):
        name = SERVICES[entry['service']]
        proxy = self.clients[entry['service']].bind(name, name + PORTS[self.binding])
        result = getattr(proxy, entry['op'])(**args_of(entry, self.binding))
        return self.helpers.serialize_object(result, dict)

    @staticmethod
    def describe(error):
        import zeep.exceptions
        if isinstance(error, zeep.exceptions.Fault):
            message = error.message.decode() if isinstance(error.message, bytes) else error.message
            return f'zeep.exceptions.Fault {error.code}: {message}'
        return f'{type(error).__module__}.{type(error).__name__}: {error}'


class Suds:
    def __init__(self, plan, binding):
        import suds.client
        self.clients = {s: suds.client.Client(url) for s, url in plan['wsdl'].items()}
        self.binding = binding

    def call(self, entry):
        port = self.clients[entry['service']].service[SERVICES[entry['service']] + PORTS[self.binding]]
        return self.plain(getattr(port, entry['op'])(**args_of(entry, self.binding)))

    def plain(self, value):
        from suds.sudsobject import Object
        if isinstance(value, Object):
            return {k: self.plain(v) for k, v in value}
        if isinstance(value, list):
            return [self.plain(v) for v in value]
        return value

    @staticmethod
    def describe(error):
        import suds
        if isinstance(error, suds.WebFault):
            return f'suds.WebFault {error.fault.faultcode}: {error.fault.faultstring}'
        return f'{type(error).__module__}.{type(error).__name__}: {error}'


def main():
    stack, plan_file, binding = sys.argv[1:4]
    with open(plan_file, encoding='utf-8') as f:
        plan = json.load(f)
    client = (Zeep if stack == 'zeep' else Suds)(plan, binding)
    entries = plan['calls'] + [dict(plan['mistake'], label='mistake')]
    for entry in entries:
        label = entry.get('label', entry['op'])
        try:
            line = {'op': label, 'ok': True, 'result': json.loads(json.dumps(client.call(entry), default=plain))}
        except Exception as error:  # every failure is a row of the report
            line = {'op': label, 'ok': False, 'error': client.describe(error)}
        print(json.dumps(line, default=plain), flush=True)


main()
