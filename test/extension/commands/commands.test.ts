import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { APIApplication, Advert } from '../../../src/protocol/catalogue';
import { scoreWith, stepApplication } from '../../../src/extension/commands/applicationCommands';
import type { CommandContext, OpenOptions, PanelPort, TreePort } from '../../../src/extension/commands/context';
import { commandTable } from '../../../src/extension/commands/commandTable';
import { OpenGesture } from '../../../src/extension/commands/openGesture';
import { openFromTree } from '../../../src/extension/commands/treeCommands';
import { COMMANDS } from '../../../src/extension/ids';
import type { AdvertRef, ApplicationRef } from '../../../src/extension/services';
import type { AccountModel, TreeNode } from '../../../src/extension/tree/accountModel';
import { findInAccount, type FindScope } from '../../../src/extension/tree/findFlow';
import type { Answer } from '../fakes';
import { accountModelFor, createTestWorkbench, type TestWorkbench } from '../harness';

interface Manifest {
	contributes: {
		commands: { command: string }[];
		menus: Record<string, { command?: string; submenu?: string; when?: string }[]>;
		keybindings: { command: string; key: string; when: string; args?: { from: string } }[];
		submenus: { id: string }[];
	};
}

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as Manifest;

/** Records what the commands asked of the panels. */
class FakePanels implements PanelPort {
	readonly shown: { kind: 'application' | 'advert'; ref: ApplicationRef | AdvertRef; options: OpenOptions }[] = [];
	readonly retargeted: ApplicationRef[] = [];
	active?: ApplicationRef;
	forms = 0;
	async showApplication(ref: ApplicationRef, options: OpenOptions): Promise<void> {
		this.shown.push({ kind: 'application', ref, options });
	}
	async showAdvert(ref: AdvertRef, options: OpenOptions): Promise<void> {
		this.shown.push({ kind: 'advert', ref, options });
	}
	async showCreateAdvert(): Promise<void> {
		this.forms++;
	}
	keepOpen(): boolean {
		return false;
	}
	activeApplication(): ApplicationRef | undefined {
		return this.active;
	}
	async retargetActiveApplication(ref: ApplicationRef): Promise<void> {
		this.retargeted.push(ref);
		this.active = ref;
	}
}

class FakeTree implements TreePort {
	selected: TreeNode[] = [];
	readonly revealed: { node: TreeNode; focus: boolean }[] = [];
	filter?: string;
	selection(): readonly TreeNode[] {
		return this.selected;
	}
	async reveal(node: TreeNode, options: { focus: boolean }): Promise<void> {
		this.revealed.push({ node, focus: options.focus });
		this.selected = [node];
	}
	showFilter(text: string | undefined): void {
		this.filter = text;
	}
}

describe('commands', function () {
	this.timeout(60_000);

	describe('the manifest and the command table', function () {
		const contributed = manifest.contributes.commands.map((c) => c.command);
		const ids = Object.values(COMMANDS) as string[];

		it('contributes exactly the ids of ids.ts, each once', function () {
			assert.deepEqual([...contributed].sort(), [...ids].sort());
			assert.equal(new Set(contributed).size, contributed.length);
		});

		it('has one handler for every command except the playground, request files, the Traffic view and the live-service features, which register their own', function () {
			const table = Object.keys(commandTable({} as CommandContext));
			const ownRegistration =
				/^multiposting\.(playground|requestFile|traffic|inspect|replay|drift|breakpoints|held)\./;
			const expected = ids.filter((id) => !ownRegistration.test(id));
			assert.deepEqual([...table].sort(), [...expected].sort());
		});

		it('uses only contributed commands and submenus in menus and keybindings', function () {
			const submenus = manifest.contributes.submenus.map((s) => s.id);
			for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
				for (const entry of entries) {
					if (entry.command) assert.ok(contributed.includes(entry.command), `${menu}: ${entry.command}`);
					if (entry.submenu) assert.ok(submenus.includes(entry.submenu), `${menu}: ${entry.submenu}`);
				}
			}
			for (const binding of manifest.contributes.keybindings) {
				assert.ok(contributed.includes(binding.command), binding.command);
			}
		});

		it('binds each triage key in the tree and in the application panel, with when clauses that say where', function () {
			const bindings = manifest.contributes.keybindings;
			const keys = new Map<string, string[]>();
			for (const binding of bindings) {
				assert.ok(binding.when.length > 0);
				if (binding.args?.from === 'tree') assert.match(binding.when, /focusedView == multiposting\.account/);
				if (binding.args?.from === 'panel') {
					assert.match(binding.when, /activeWebviewPanelId == 'multiposting\.applicationDetails'/);
				}
				assert.match(binding.when, /!inputFocus/, 'typing in an input never scores');
				keys.set(binding.key, [...(keys.get(binding.key) ?? []), binding.args?.from ?? '?']);
			}
			assert.deepEqual([...keys.keys()].sort(), ['f', 'j', 'k', 'm', 'n', 'p', 's', 'u']);
			for (const [key, origins] of keys) assert.deepEqual(origins.sort(), ['panel', 'tree'], key);
			// The score keys show in the application row's context menu (a Score submenu).
			const scoreMenu = manifest.contributes.menus['multiposting.application.scoreMenu'].map((e) => e.command);
			assert.deepEqual(scoreMenu, [
				COMMANDS.applicationScoreSuitable,
				COMMANDS.applicationScoreMaybe,
				COMMANDS.applicationScoreUnsuitable,
				COMMANDS.applicationScoreFavourite,
				COMMANDS.applicationScoreNone,
			]);
		});
	});

	describe('on the real emulator', function () {
		let wb: TestWorkbench;
		let model: AccountModel;
		let tree: FakeTree;
		let panels: FakePanels;
		let ctx: CommandContext;

		before(async function () {
			wb = createTestWorkbench();
			await wb.sandbox.start();
		});
		after(async function () {
			await wb.dispose();
		});
		beforeEach(function () {
			model = accountModelFor(wb);
			tree = new FakeTree();
			panels = new FakePanels();
			ctx = {
				services: wb.services,
				ui: wb.ui,
				store: wb.store,
				sandbox: wb.sandbox,
				model,
				tree,
				panels,
				settings: wb.settings,
				executeCommand: async () => undefined,
			};
		});

		/** The Find command's flow over this test's model, tree and panels. */
		function find(scope?: FindScope): Promise<TreeNode | undefined> {
			return findInAccount(
				{
					ui: wb.ui,
					log: wb.log,
					client: () => wb.services.activeClient(),
					model,
					tree,
					panels,
				},
				scope,
			);
		}

		/** Types into Find's box and takes the offered choice of that kind (the first when none is given). */
		function typeIntoFind(text: string, kind?: string): Answer {
			return {
				typed: text,
				pick: (items) => items.find((i) => kind === undefined || (i.value as { kind: string }).kind === kind),
			};
		}

		/** The application rows of an advert of demo.admin with at least three applications. */
		async function applicationRows(): Promise<TreeNode[]> {
			const [root] = model.roots();
			for (const org of await model.getChildren(root)) {
				for (const user of await model.getChildren(org)) {
					if (user.data.kind !== 'user' || user.data.user.username !== 'demo.admin') continue;
					for (const advert of await model.getChildren(user)) {
						if (advert.data.kind !== 'advert' || (advert.data.advert.Applications ?? 0) < 7) continue;
						return (await model.getChildren(advert)).filter((n) => n.data.kind === 'application');
					}
				}
			}
			throw new Error('no advert with applications');
		}

		it('opens a clicked row in the preview with the row as initial data, and pins it on a double-click', async function () {
			const rows = await applicationRows();
			let now = 0;
			const gesture = new OpenGesture(500, () => now);
			await openFromTree(ctx, gesture, rows[0]);
			now += 150;
			await openFromTree(ctx, gesture, rows[0]);
			now += 2000;
			await openFromTree(ctx, gesture, rows[1]);
			assert.deepEqual(
				panels.shown.map((s) => [s.kind, (s.ref as ApplicationRef).advertCandidateId, s.options.preview]),
				[
					[
						'application',
						(rows[0].data as { application: APIApplication }).application.AdvertCandidateID,
						true,
					],
					[
						'application',
						(rows[0].data as { application: APIApplication }).application.AdvertCandidateID,
						false,
					],
					[
						'application',
						(rows[1].data as { application: APIApplication }).application.AdvertCandidateID,
						true,
					],
				],
			);
			assert.equal(
				panels.shown[0].options.initial,
				(rows[0].data as { application: APIApplication }).application,
			);
			assert.equal(
				panels.shown[0].options.preserveFocus,
				true,
				'a click keeps the focus in the tree for the keys',
			);
			const advert = rows[0].parent!;
			await openFromTree(ctx, gesture, advert);
			assert.equal(panels.shown.at(-1)!.kind, 'advert');
			assert.equal(panels.shown.at(-1)!.options.initial, (advert.data as { advert: Advert }).advert);
		});

		it('scores the selected row with one key, names the candidate, and the service has the ranking', async function () {
			const rows = await applicationRows();
			const row = rows[2];
			const app = (row.data as { application: APIApplication }).application;
			tree.selected = [row];
			assert.equal(await scoreWith(ctx, 'M', { from: 'tree' }), true);
			const page = await (
				await wb.services.activeClient()
			).getApplicationsPaged({
				sAdvertID: String(app.AdvertID),
				AdvertCandidateIDAsCSV: String(app.AdvertCandidateID),
				CurrentPage: 1,
				RowsPerPage: 1,
			});
			assert.equal(page.Applications![0].Ranking, 'MaybeSuitable');
			assert.equal(wb.ui.messages('status').at(-1), `${app.FirstName} ${app.LastName}: Maybe`);
			assert.equal(wb.ui.calls.filter((c) => c.kind === 'pick').length, 0, 'no picker for a key');
			// A key pressed in the panel scores the panel's application, not the tree's selection.
			panels.active = {
				advertId: app.AdvertID!,
				advertCandidateId:
					rows[3].data.kind === 'application' ? rows[3].data.application.AdvertCandidateID! : 0,
			};
			assert.equal(await scoreWith(ctx, 'S', { from: 'panel' }), true);
			assert.equal(
				wb.services.activity.latest(panels.active.advertCandidateId, 'score')?.text,
				'Scored Suitable',
			);
		});

		it('moves to the next and previous application: the tree selection from the tree, the panel from the panel', async function () {
			const rows = await applicationRows();
			tree.selected = [rows[0]];
			await stepApplication(ctx, 1, { from: 'tree' });
			assert.deepEqual(
				tree.revealed.map((r) => [r.node.descriptor.id, r.focus]),
				[[rows[1].descriptor.id, true]],
			);
			await stepApplication(ctx, -1, { from: 'tree' });
			assert.equal(tree.revealed.at(-1)!.node.descriptor.id, rows[0].descriptor.id);
			const first = (rows[0].data as { application: APIApplication }).application;
			panels.active = { advertId: first.AdvertID!, advertCandidateId: first.AdvertCandidateID! };
			await stepApplication(ctx, 1, { from: 'panel' });
			assert.equal(
				panels.retargeted.at(-1)?.advertCandidateId,
				(rows[1].data as { application: APIApplication }).application.AdvertCandidateID,
			);
			assert.equal(tree.revealed.at(-1)!.focus, false, 'the panel keeps the focus');
			tree.selected = [rows[0]];
			await stepApplication(ctx, -1, { from: 'tree' });
			assert.equal(wb.ui.messages('status').at(-1), 'This is the first application.');
		});

		it('loads the next page when "next" passes the last loaded row', async function () {
			const rows = await applicationRows();
			assert.equal(rows.length, 5, 'a page of five');
			tree.selected = [rows[4]];
			await stepApplication(ctx, 1, { from: 'tree' });
			const next = tree.revealed.at(-1)!.node;
			assert.equal(next.data.kind, 'application');
			assert.notEqual(next.descriptor.id, rows[4].descriptor.id);
			assert.equal(next.parent, rows[4].parent);
		});

		it('finds an application by ID, reveals its row and opens it in the preview', async function () {
			const rows = await applicationRows();
			const app = (rows[1].data as { application: APIApplication }).application;
			wb.ui.script(typeIntoFind('', 'applicationId'), { input: String(app.AdvertCandidateID) });
			const node = await find();
			assert.equal(node?.descriptor.id, rows[1].descriptor.id);
			assert.deepEqual(
				tree.revealed.at(-1),
				{ node, focus: false },
				'the row is shown, the panel keeps the focus',
			);
			const shown = panels.shown.at(-1)!;
			assert.equal((shown.ref as ApplicationRef).advertCandidateId, app.AdvertCandidateID);
			assert.equal(shown.options.preview, true);
		});

		it('says so when nothing matches, and what to try', async function () {
			wb.ui.script(typeIntoFind('', 'advertReference'), { input: 'NO-SUCH-REF' });
			const node = await find();
			assert.equal(node, undefined);
			assert.equal(
				wb.ui.messages('info').at(-1),
				'No advert reference NO-SUCH-REF on this connection. Check the value, or find it as another kind.',
			);
		});

		it('finds a reference typed straight into the box (Enter takes the reference guess)', async function () {
			const rows = await applicationRows();
			const advertRow = rows[0].parent!;
			const advert = (advertRow.data as { advert: Advert }).advert;
			assert.match(advert.AdvertReference ?? '', /^REF\//);
			wb.ui.script(typeIntoFind(advert.AdvertReference!));
			const node = await find();
			const offered = wb.ui.calls.filter((c) => c.kind === 'pickTyped').at(-1)!.items!;
			assert.equal(offered[0].label, 'Advert reference');
			assert.equal(offered[0].description, `Find “${advert.AdvertReference}” as an advert reference`);
			assert.equal(node?.descriptor.id, advertRow.descriptor.id);
			assert.equal((panels.shown.at(-1)!.ref as AdvertRef).advertId, advert.AdvertID);
		});

		it('opens what it found before it locates the row in the tree', async function () {
			const rows = await applicationRows();
			const advert = (rows[0].parent!.data as { advert: Advert }).advert;
			const shownWhenLocating: number[] = [];
			wb.ui.script(typeIntoFind(String(advert.AdvertID), 'advertId'));
			const before = panels.shown.length;
			await findInAccount({
				ui: wb.ui,
				log: wb.log,
				client: () => wb.services.activeClient(),
				model: {
					locateAdvert: (a) => {
						shownWhenLocating.push(panels.shown.length - before);
						return model.locateAdvert(a);
					},
					locateApplication: (a) => model.locateApplication(a),
				},
				tree,
				panels,
			});
			assert.deepEqual(shownWhenLocating, [1], 'the panel was already open');
		});

		it('offers a typed number as an advert ID first, then as an application ID', async function () {
			const rows = await applicationRows();
			const app = (rows[2].data as { application: APIApplication }).application;
			wb.ui.script(typeIntoFind(` ${app.AdvertCandidateID} `, 'applicationId'));
			const node = await find();
			const offered = wb.ui.calls.filter((c) => c.kind === 'pickTyped').at(-1)!.items!;
			assert.deepEqual(
				offered.map((i) => (i.value as { kind: string }).kind),
				['advertId', 'applicationId', 'advertReference', 'advertIdentifier'],
			);
			assert.equal(node?.descriptor.id, rows[2].descriptor.id);
		});

		it('finds from an organisation down, and not outside it', async function () {
			const rows = await applicationRows();
			const advert = (rows[0].parent!.data as { advert: Advert }).advert;
			assert.equal(advert.OrganisationID, 1, "demo.admin's advert is the group's");
			wb.ui.script(typeIntoFind(String(advert.AdvertID), 'advertId'));
			assert.equal(await find({ organisationId: 2, name: 'Acme North' }), undefined);
			assert.equal(
				wb.ui.messages('info').at(-1),
				`No advert ID ${advert.AdvertID} in Acme North or below. Check the value, or find it as another kind.`,
			);
			wb.ui.script(typeIntoFind(String(advert.AdvertID), 'advertId'));
			const node = await find({ organisationId: advert.OrganisationID!, name: 'its organisation' });
			assert.equal(node?.descriptor.id, rows[0].parent!.descriptor.id);
		});
	});
});
