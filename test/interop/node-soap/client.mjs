// node-soap (npm soap) client of the conformance run: calls every operation of the plan in one SOAP
// binding and prints one JSON line per call (see test/interop/conformance.mjs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const soap = require('soap');
const [planFile, binding] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const clients = {};

async function clientFor(service) {
	clients[service] ??= await soap.createClientAsync(plan.wsdl[service], {
		forceSoap12Headers: binding === 'soap12',
	});
	return clients[service];
}

async function call({ service, op, params }) {
	const client = await clientFor(service);
	const port = `${service === 'posting' ? 'Posting' : 'Administration'}${binding === 'soap12' ? 'Soap12' : 'Soap'}`;
	const method = client[service === 'posting' ? 'Posting' : 'Administration'][port][op];
	const args = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? { string: v } : v]));
	const [result] = await new Promise((resolve, reject) =>
		method(args, (error, ...rest) => (error ? reject(error) : resolve(rest))),
	);
	return result;
}

function describe(error) {
	const fault = error.root?.Envelope?.Body?.Fault;
	if (fault) {
		const text = fault.faultstring ?? fault.Reason?.Text?.$value ?? fault.Reason?.Text ?? JSON.stringify(fault);
		return `SOAP Fault ${JSON.stringify(fault.faultcode ?? fault.Code?.Value)}: ${text}`;
	}
	return `${error.name}: ${error.message}`;
}

for (const entry of [...plan.calls, { ...plan.mistake, op: 'mistake', realOp: plan.mistake.op }]) {
	try {
		const result = await call({ ...entry, op: entry.realOp ?? entry.op });
		console.log(JSON.stringify({ op: entry.op, ok: true, result }));
	} catch (error) {
		console.log(JSON.stringify({ op: entry.op, ok: false, error: describe(error) }));
	}
}
