/**
 * Benchmark 5, the tree: the extension's own services and account tree model (src/extension,
 * with the in-memory settings and secrets the unit tests use in place of VS Code) over the embedded
 * sandbox, as the extension host runs them. Times expanding an advert to its first page of
 * applications, and samples the process's memory (the sandbox runs inside the extension host).
 *
 *   node out/bench/extensionTree.js <sandbox folder>   (prints one line of JSON)
 */
import type * as vscode from 'vscode';
import { startEmulator } from '../src/emulator';
import { ConnectionStore } from '../src/extension/connections/connectionStore';
import { SandboxManager } from '../src/extension/sandbox/sandboxManager';
import { AccountModel, type TreeNode } from '../src/extension/tree/accountModel';
import { DefaultWorkbenchServices } from '../src/extension/workbenchServices';
import { FakeUi, MemoryLog, MemorySecrets, MemorySettings } from '../test/extension/fakes';

/** The extension's default page size (setting multiposting.tree.pageSize). */
const PAGE_SIZE = 50;
const WARM_REPS = 7;

export interface TreeFigures {
	/** Applications of the expanded advert (its total, as the tree reports it). */
	applications: number;
	coldMs: number;
	warmMedianMs: number;
	sandboxStartMs: number;
	rssAfterSetupMb: number;
	rssAfterExpandMb: number;
	heapAfterExpandMb: number;
}

const mb = (bytes: number) => bytes / 1e6;
const now = () => Number(process.hrtime.bigint()) / 1e6;

export async function measureTree(dataDir: string): Promise<TreeFigures> {
	const log = new MemoryLog();
	const settings = new MemorySettings({});
	const sandbox = new SandboxManager({ loadEmulator: async () => startEmulator, dataDir, seed: () => 1, log });
	const store = new ConnectionStore(settings, new MemorySecrets(), sandbox);
	const services = new DefaultWorkbenchServices({ extensionUri: {} as vscode.Uri, log: log.asChannel(), store, sandbox, settings, ui: new FakeUi() });
	const model = new AccountModel({
		client: () => services.activeClient(),
		connection: () => store.active(),
		sandboxState: () => sandbox.state,
		pageSize: () => PAGE_SIZE,
		progressNames: () => undefined,
		log,
	});
	try {
		const rssAfterSetupMb = mb(process.memoryUsage().rss);
		let started = now();
		await sandbox.start();
		const sandboxStartMs = now() - started;

		const advert = await busiestAdvertOfDemoAdmin(model);
		started = now();
		const first = await model.getChildren(advert);
		const coldMs = now() - started;
		const applications = first.filter((n) => n.descriptor.kind === 'application').length;
		if (applications === 0) throw new Error('the advert showed no applications');

		const warm: number[] = [];
		for (let i = 0; i < WARM_REPS; i++) {
			model.refreshNode(advert);
			started = now();
			await model.getChildren(advert);
			warm.push(now() - started);
		}
		warm.sort((a, b) => a - b);
		const memory = process.memoryUsage();
		return {
			applications: advert.data.kind === 'advert' ? advert.data.advert.Applications ?? applications : applications,
			coldMs,
			warmMedianMs: warm[warm.length >> 1],
			sandboxStartMs,
			rssAfterSetupMb,
			rssAfterExpandMb: mb(memory.rss),
			heapAfterExpandMb: mb(memory.heapUsed),
		};
	} finally {
		model.dispose();
		services.dispose();
		await sandbox.stop();
	}
}

/** Walks connection → organisations → demo.admin → adverts and returns the advert with most applications on the first page. */
async function busiestAdvertOfDemoAdmin(model: AccountModel): Promise<TreeNode> {
	const [root] = model.roots();
	for (const org of await model.getChildren(root)) {
		for (const user of await model.getChildren(org)) {
			if (user.data.kind !== 'user' || user.data.user.username !== 'demo.admin') continue;
			const adverts = (await model.getChildren(user)).filter((n) => n.data.kind === 'advert');
			const count = (n: TreeNode) => (n.data.kind === 'advert' ? n.data.advert.Applications ?? 0 : 0);
			const busiest = adverts.reduce((best, n) => (count(n) > count(best) ? n : best), adverts[0]);
			if (busiest) return busiest;
		}
	}
	throw new Error('demo.admin has no adverts in the tree');
}

if (require.main === module) {
	measureTree(process.argv[2]).then(
		(figures) => process.stdout.write(JSON.stringify(figures)),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
