/**
 * Benchmark 5 in a fresh process standing in for the extension host: requires the production
 * bundle with the 'vscode' stand-in of bench/vscodeStandIn.ts (the unit tests' in-memory settings,
 * secrets and log behind it), calls its activate() with a fake ExtensionContext, and then, in `tree`
 * mode, drives the tree view the extension registered (its own AccountTreeProvider and AccountModel,
 * as composed by activate()) over the sandbox in `<globalStorage>/sandbox`: starts it, expands
 * connection → organisation → demo.admin → adverts → the advert with most applications, and times
 * the expansion of that advert to its first page of application tree items.
 *
 *   node --expose-gc out/bench/extensionChild.js activate|tree <bundle.js> <globalStorage>   (prints one line of JSON)
 */
import { existsSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { join } from 'node:path';
import { ACCOUNT_VIEW_ID, COMMANDS } from '../src/extension/ids';
import { createVscodeStandIn } from './vscodeStandIn';

/** Repetitions of the refreshed (warm) expansion. */
const WARM_REPS = 7;
/** Other adverts expanded for the first time in the same process. */
const OTHER_ADVERTS = 3;

export interface Memory {
	rssMb: number;
	heapUsedMb: number;
	externalMb: number;
}

export interface ActivationFigures {
	requireMs: number;
	activateMs: number;
	subscriptions: number;
	commands: number;
	treeViews: string[];
	/** API calls made during activate(), by name. */
	calls: Record<string, number>;
	/** Listening servers and sandbox folder after activation: activation starts nothing. */
	listeningServers: number;
	sandboxStarted: boolean;
	memory: Memory;
}

export interface TreeFigures {
	activation: ActivationFigures;
	sandboxStartMs: number;
	/** Time of each level of the walk: connection → organisations, → users, → adverts. */
	walkMs: { organisations: number; users: number; adverts: number };
	/** Applications of the expanded advert (its total as the tree shows it) and the tree items of its first page. */
	applications: number;
	firstPageItems: number;
	/** First expansion of the busiest advert in this process. */
	coldMs: number;
	/** First expansion of the next busiest adverts (process warm, data not yet read), each. */
	otherColdMs: number[];
	otherApplications: number[];
	/** The busiest advert refreshed ("Refresh" on the node) and expanded again, each. */
	warmMs: number[];
	memory: Memory;
}

interface Node {
	descriptor: { kind: string; label: string };
	data: { kind: string; user?: { username?: string }; advert?: { Applications?: number } };
}
interface Provider {
	getChildren(node?: Node): Promise<Node[]>;
	getTreeItem(node: Node): unknown;
}

const now = (): number => Number(process.hrtime.bigint()) / 1e6;

function memory(): Memory {
	(globalThis as { gc?: () => void }).gc?.();
	const m = process.memoryUsage();
	return { rssMb: m.rss / 1e6, heapUsedMb: m.heapUsed / 1e6, externalMb: m.external / 1e6 };
}

async function main(mode: string, bundle: string, globalStorage: string): Promise<ActivationFigures | TreeFigures> {
	const standIn = createVscodeStandIn();
	const moduleInternals = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
	const load = moduleInternals._load;
	moduleInternals._load = function (request, parent, isMain) {
		return request === 'vscode' ? standIn.api : load.call(this, request, parent, isMain);
	};

	let started = now();
	const extension = createRequire(__filename)(bundle) as { activate(context: unknown): void; deactivate?(): void };
	const requireMs = now() - started;
	const context = standIn.context(globalStorage, join(__dirname, '..', '..'));
	started = now();
	extension.activate(context);
	const activateMs = now() - started;
	const subscriptions = context.subscriptions as { dispose(): unknown }[];
	const activation: ActivationFigures = {
		requireMs,
		activateMs,
		subscriptions: subscriptions.length,
		commands: standIn.commands.size,
		treeViews: standIn.treeViews.map((v) => v.id),
		calls: Object.fromEntries(standIn.calls),
		listeningServers: process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length,
		sandboxStarted: standIn.log.lines.some((l) => /Sandbox running/.test(l.message)),
		memory: memory(),
	};
	try {
		if (mode === 'activate') return activation;
		return { activation, ...(await driveTree(standIn.treeViews, standIn.commands)) };
	} finally {
		await standIn.commands.get(COMMANDS.sandboxStop)?.();
		for (const d of subscriptions) d.dispose();
		extension.deactivate?.();
	}
}

async function driveTree(
	treeViews: { id: string; options: Record<string, unknown> }[],
	commands: Map<string, (...args: unknown[]) => unknown>,
): Promise<Omit<TreeFigures, 'activation'>> {
	const provider = treeViews.find((v) => v.id === ACCOUNT_VIEW_ID)?.options.treeDataProvider as Provider | undefined;
	if (!provider) throw new Error(`activate() registered no ${ACCOUNT_VIEW_ID} tree view`);
	const command = (id: string) => {
		const handler = commands.get(id);
		if (!handler) throw new Error(`activate() registered no command ${id}`);
		return handler;
	};

	let started = now();
	await command(COMMANDS.sandboxStart)();
	const sandboxStartMs = now() - started;

	const [root] = await provider.getChildren(undefined);
	started = now();
	const organisations = await provider.getChildren(root);
	const walkMs = { organisations: now() - started, users: 0, adverts: 0 };
	let adverts: Node[] | undefined;
	for (const organisation of organisations) {
		started = now();
		const users = await provider.getChildren(organisation);
		walkMs.users = walkMs.users || now() - started;
		const admin = users.find((u) => u.data.kind === 'user' && u.data.user?.username === 'demo.admin');
		if (!admin) continue;
		started = now();
		adverts = (await provider.getChildren(admin)).filter((n) => n.data.kind === 'advert');
		walkMs.adverts = now() - started;
		break;
	}
	if (!adverts?.length) {
		throw new Error(
			`demo.admin has no adverts in the tree (${organisations.map((o) => o.descriptor.label).join(', ')})`,
		);
	}
	const count = (n: Node): number => n.data.advert?.Applications ?? 0;
	adverts.sort((a, b) => count(b) - count(a));

	/** Asks for the advert's children and turns them into tree items, as VS Code does when a node is expanded. */
	const expand = async (advert: Node): Promise<{ ms: number; items: number; applications: number }> => {
		const start = now();
		const children = await provider.getChildren(advert);
		const items = children.map((n) => provider.getTreeItem(n));
		const ms = now() - start;
		const applications = children.filter((n) => n.descriptor.kind === 'application').length;
		if (applications === 0) {
			throw new Error(
				`advert ${advert.descriptor.label} showed no applications: ${children.map((n) => n.descriptor.label).join(', ')}`,
			);
		}
		return { ms, items: items.length, applications };
	};

	const busiest = adverts[0];
	const cold = await expand(busiest);
	const others = adverts.slice(1, 1 + OTHER_ADVERTS).filter((a) => count(a) > 0);
	const otherColdMs: number[] = [];
	for (const advert of others) otherColdMs.push((await expand(advert)).ms);
	const warmMs: number[] = [];
	for (let i = 0; i < WARM_REPS; i++) {
		await command(COMMANDS.treeRefreshNode)(busiest);
		warmMs.push((await expand(busiest)).ms);
	}
	return {
		sandboxStartMs,
		walkMs,
		applications: count(busiest),
		firstPageItems: cold.items,
		coldMs: cold.ms,
		otherColdMs,
		otherApplications: others.map(count),
		warmMs,
		memory: memory(),
	};
}

if (require.main === module) {
	const [mode, bundle, globalStorage] = process.argv.slice(2);
	if (!['activate', 'tree'].includes(mode) || !bundle || !globalStorage || !existsSync(bundle)) {
		console.error('usage: extensionChild.js activate|tree <bundle.js> <globalStorage>');
		process.exit(2);
	}
	main(mode, bundle, globalStorage).then(
		(figures) => {
			process.stdout.write(JSON.stringify(figures));
			process.exit(0);
		},
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
