import * as assert from 'node:assert/strict';
import type { AccountModel, TreeNode } from '../../../src/extension/tree/accountModel';
import { accountModelFor, createTestWorkbench, type TestWorkbench } from '../harness';

describe('account tree model (real emulator)', function () {
	this.timeout(60_000);
	let wb: TestWorkbench;
	let model: AccountModel;
	let pageSize: number;
	let changed: (TreeNode | undefined)[];

	before(async function () {
		wb = createTestWorkbench();
		await wb.sandbox.start();
	});
	after(async function () {
		await wb.dispose();
	});
	beforeEach(function () {
		pageSize = 5;
		changed = [];
		model = accountModelFor(wb, { pageSize: () => pageSize });
		model.onDidChange((n) => changed.push(n));
	});

	const kinds = (nodes: TreeNode[]) => nodes.map((n) => n.descriptor.kind);

	/** Every organisation row of a model, loading each level: "parent > child" paths. */
	async function organisationPaths(m: AccountModel): Promise<string[]> {
		const paths: string[] = [];
		const walk = async (nodes: TreeNode[], above: string) => {
			for (const node of nodes.filter((n) => n.data.kind === 'organisation')) {
				const path = above ? `${above} > ${node.descriptor.label}` : node.descriptor.label;
				paths.push(path);
				await walk(await m.getChildren(node), path);
			}
		};
		await walk(await m.getChildren(m.roots()[0]), '');
		return paths;
	}

	async function demoAdminAdverts(): Promise<{ user: TreeNode; adverts: TreeNode[] }> {
		const [root] = model.roots();
		const orgs = await model.getChildren(root);
		for (const org of orgs) {
			const users = await model.getChildren(org);
			const user = users.find((u) => u.data.kind === 'user' && u.data.user.username === 'demo.admin');
			if (user) return { user, adverts: await model.getChildren(user) };
		}
		throw new Error('demo.admin is not in the tree');
	}

	it('shows the sandbox connection, then organisations named from applications, then users with advert counts', async function () {
		const roots = model.roots();
		assert.equal(roots.length, 1);
		assert.equal(roots[0].descriptor.contextValue, 'connection:sandbox');
		assert.equal(roots[0].descriptor.description, 'built-in · running');
		const orgs = await model.getChildren(roots[0]);
		assert.ok(orgs.every((o) => o.descriptor.kind === 'organisation'));
		assert.ok(
			orgs.some((o) => o.descriptor.label === 'Acme Recruitment Group'),
			`names: ${orgs.map((o) => o.descriptor.label).join(', ')}`,
		);
		const users = (await model.getChildren(orgs[0])).filter((n) => n.data.kind !== 'organisation');
		assert.ok(users.length > 0);
		assert.ok(
			users.every((u) => u.descriptor.kind === 'user' && /\d+ adverts?/.test(u.descriptor.description ?? '')),
			users.map((u) => u.descriptor.description).join(' | '),
		);
	});

	/** A client whose GetApplicationsPaged calls are recorded, and answered empty while `recentIsEmpty` says so for a recent start date. */
	function recordingClient(recentIsEmpty: (start: string) => boolean): { starts: string[]; model: AccountModel } {
		const starts: string[] = [];
		const recording = accountModelFor(wb, {
			client: async () => {
				const client = await wb.services.activeClient();
				return new Proxy(client, {
					get(target, key, receiver) {
						if (key !== 'getApplicationsPaged') return Reflect.get(target, key, receiver) as unknown;
						return async (params: { sApplicationStartDateTime?: string }) => {
							const start = params.sApplicationStartDateTime ?? '';
							starts.push(start);
							if (recentIsEmpty(start)) {
								return { PageCount: 0, PageIndex: 1, TotalItemCount: 0, Applications: [] };
							}
							return target.getApplicationsPaged(params as never);
						};
					},
				});
			},
			pageSize: () => pageSize,
		});
		return { starts, model: recording };
	}

	/** A model whose client counts the operations it is asked for, by method name. */
	function countingModel(): { calls: Record<string, number>; model: AccountModel } {
		const calls: Record<string, number> = {};
		const counting = accountModelFor(wb, {
			client: async () => {
				const client = await wb.services.activeClient();
				return new Proxy(client, {
					get(target, key, receiver) {
						const value = Reflect.get(target, key, receiver) as unknown;
						if (typeof key !== 'string' || typeof value !== 'function') return value;
						return (...args: unknown[]) => {
							calls[key] = (calls[key] ?? 0) + 1;
							return (value as (...a: unknown[]) => unknown).apply(target, args);
						};
					},
				});
			},
		});
		return { calls, model: counting };
	}

	it('reads for its first load only what the collapsed organisations show', async function () {
		const { calls, model: counting } = countingModel();
		const top = await counting.getChildren(counting.roots()[0]);
		assert.deepEqual(
			top.map((n) => n.descriptor.label),
			['Acme Recruitment Group'],
		);
		// The account's users, the top organisation's part of the tree (it covers the others), and one
		// application naming the one organisation shown; nothing for the levels below, still collapsed.
		assert.deepEqual({ ...calls }, { userList: 2, getApplicationsPaged: 1 });

		const below = await counting.getChildren(top[0]);
		const organisations = below.filter((n) => n.data.kind === 'organisation');
		const users = below.filter((n) => n.data.kind === 'user');
		assert.deepEqual(
			organisations.map((n) => n.descriptor.label),
			['Acme North', 'Acme South'],
		);
		// Opened, it names the organisations it shows and counts its own users' adverts.
		assert.equal(calls.getApplicationsPaged, 1 + organisations.length);
		assert.equal(calls.getAdvertPaged, users.length);
	});

	it('names organisations from recent applications first, without a search over all dates', async function () {
		const { starts, model: recording } = recordingClient(() => false);
		const paths = await organisationPaths(recording);
		assert.ok(
			paths.some((p) => p.endsWith('> Acme North')),
			`names: ${paths.join(', ')}`,
		);
		assert.ok(starts.length > 0);
		const monthAgo = Date.now() - 31 * 86_400_000;
		for (const start of starts) {
			assert.ok(Date.parse(start.replace(' ', 'T') + 'Z') > monthAgo, `a recent window, not ${start}`);
		}
	});

	it('names an organisation from older applications when it has none in the recent window', async function () {
		const { starts, model: recording } = recordingClient((start) => !start.startsWith('2000-'));
		const paths = await organisationPaths(recording);
		assert.ok(
			paths.some((p) => p.endsWith('> Acme North')),
			`names: ${paths.join(', ')}`,
		);
		assert.ok(starts.includes('2000-01-01 00:00:00'), 'fell back to all dates');
	});

	it('loads adverts a page at a time with "Load more…" until all are shown', async function () {
		const { user, adverts } = await demoAdminAdverts();
		assert.equal(user.data.kind, 'user');
		const total = user.data.kind === 'user' ? user.data.advertCount! : 0;
		assert.ok(total > pageSize, `demo.admin has more than one page of adverts (${total})`);
		assert.deepEqual(kinds(adverts), [...Array(pageSize).fill('advert'), 'loadMore']);
		assert.equal(adverts.at(-1)!.descriptor.description, `${pageSize} of ${total}`);
		await model.loadMore(user);
		assert.ok(changed.includes(user));
		const more = await model.getChildren(user);
		assert.equal(more.filter((n) => n.descriptor.kind === 'advert').length, pageSize * 2);
		assert.deepEqual(
			more.slice(0, pageSize).map((n) => n.descriptor.id),
			adverts.slice(0, pageSize).map((n) => n.descriptor.id),
			'the first page stays in place',
		);
		for (let i = 0; i < 100 && (await model.getChildren(user)).at(-1)!.descriptor.kind === 'loadMore'; i++) {
			await model.loadMore(user);
		}
		const all = await model.getChildren(user);
		assert.equal(all.length, total, 'every advert once, no "Load more…" at the end');
		assert.equal(new Set(all.map((n) => n.descriptor.id)).size, total);
	});

	it('lists the applications of an advert and refreshes one after it is scored', async function () {
		const { adverts } = await demoAdminAdverts();
		const advert = adverts.find((a) => a.data.kind === 'advert' && (a.data.advert.Applications ?? 0) > 0)!;
		const applications = await model.getChildren(advert);
		assert.ok(applications.length > 0 && applications[0].descriptor.kind === 'application');
		const target = applications.find(
			(a) => a.data.kind === 'application' && !a.data.application.Favourite && a.data.application.Score === 0,
		)!;
		assert.equal(target.descriptor.icon?.id, 'circle-outline');
		const ref = target.data.kind === 'application' ? target.data.application : undefined;
		assert.equal(
			await wb.services.applications.score(
				{ advertId: ref!.AdvertID!, advertCandidateId: ref!.AdvertCandidateID! },
				'U',
			),
			true,
		);
		await model.dataChanged({ advertId: ref!.AdvertID, advertCandidateId: ref!.AdvertCandidateID });
		assert.deepEqual(
			target.descriptor.icon,
			{ id: 'error', color: 'charts.red' },
			'the same node object now shows the new ranking',
		);
		assert.match(target.descriptor.description ?? '', /^Unsuitable/);
		assert.ok(changed.includes(target), 'only the affected nodes are announced');
		assert.ok(changed.includes(advert));
		assert.ok(!changed.includes(undefined), 'no whole-tree refresh');
	});

	it('applies the ranking filter to applications and describes it', async function () {
		model.setFilters({ ranking: 'Unsuitable' });
		assert.deepEqual(changed, [undefined]);
		const { adverts } = await demoAdminAdverts();
		for (const advert of adverts.filter((a) => a.descriptor.kind === 'advert').slice(0, 3)) {
			const apps = (await model.getChildren(advert)).filter((n) => n.data.kind === 'application');
			assert.ok(apps.every((a) => a.data.kind === 'application' && a.data.application.Ranking === 'Unsuitable'));
		}
		model.setFilters({});
		assert.deepEqual(model.filters, {});
	});

	it('says how many applications of an advert match the filter once it is expanded', async function () {
		model.setFilters({ ranking: 'Suitable' });
		const { adverts } = await demoAdminAdverts();
		const advert = adverts.find((a) => a.data.kind === 'advert' && (a.data.advert.Applications ?? 0) > 5)!;
		const total = (advert.data as { advert: { Applications: number } }).advert.Applications;
		assert.match(advert.descriptor.description ?? '', new RegExp(`^${total} applications in all`));
		const shown = (await model.getChildren(advert)).filter((n) => n.data.kind === 'application');
		assert.match(advert.descriptor.description ?? '', new RegExp(`^\\d+ of ${total} applications match`));
		const matching = Number(/^(\d+) of/.exec(advert.descriptor.description!)![1]);
		assert.ok(matching >= shown.length && matching < total);
		assert.ok(changed.includes(advert), 'the row is redrawn with the count');
		model.setFilters({});
	});

	it('orders applications as the filter asks (newest first)', async function () {
		model.setFilters({ order: 'newest' });
		const { adverts } = await demoAdminAdverts();
		const advert = adverts.find((a) => a.data.kind === 'advert' && (a.data.advert.Applications ?? 0) > 3)!;
		const dates = (await model.getChildren(advert))
			.filter((n) => n.data.kind === 'application')
			.map((n) => (n.data as { application: { ApplicationDate: string } }).application.ApplicationDate);
		assert.deepEqual([...dates].sort().reverse(), dates);
		model.setFilters({});
	});

	it('updates an advert row from a fresher record without reloading', async function () {
		const { adverts } = await demoAdminAdverts();
		const node = adverts.find((a) => a.data.kind === 'advert')!;
		const advert = (node.data as { advert: import('../../../src/protocol/catalogue').Advert }).advert;
		changed.length = 0;
		model.advertSeen({ ...advert });
		assert.deepEqual(changed, [], 'nothing changed, nothing redrawn');
		model.advertSeen({
			...advert,
			Applications: (advert.Applications ?? 0) + 1,
			LastDeliveryStatusID: 1,
			LastPostDate: '2026-01-01T00:00:00Z',
		});
		assert.deepEqual(changed, [node]);
		assert.match(node.descriptor.description ?? '', /Pending/);
	});

	it("puts the login's own organisation first", async function () {
		const orgs = await model.getChildren(model.roots()[0]);
		const users = await model.getChildren(orgs[0]);
		assert.ok(
			users.some((u) => u.data.kind === 'user' && u.data.user.username === 'demo.admin'),
			`first: ${orgs[0].descriptor.label}`,
		);
	});

	it('locates an advert found by id, loading the path to it', async function () {
		const client = await wb.services.activeClient();
		const first = await client.getAdvertPaged({
			sUsername: 'demo.admin',
			sSearchDays: '-1',
			CurrentPage: 1,
			RowsPerPage: 5,
		});
		assert.ok(first.PageCount! >= 3, 'demo.admin has several pages of adverts');
		const page = await client.getAdvertPaged({
			sUsername: 'demo.admin',
			sSearchDays: '-1',
			CurrentPage: first.PageCount!,
			RowsPerPage: 5,
		});
		const advert = page.Adverts![0];
		const node = await model.locateAdvert(advert);
		assert.ok(node, 'the advert on the last page is found');
		assert.equal(node.descriptor.id, `advert:sandbox:${advert.AdvertID}`);
		assert.equal(node.parent?.descriptor.kind, 'user');
		assert.equal(node.parent?.parent?.descriptor.kind, 'organisation');
	});

	it('shows an error node with the reason when loading fails, and recovers on retry', async function () {
		let fail = true;
		const failing = accountModelFor(wb, {
			client: async () => {
				if (fail) throw new Error('service unreachable');
				return wb.services.activeClient();
			},
		});
		const [root] = failing.roots();
		const children = await failing.getChildren(root);
		assert.deepEqual(kinds(children), ['error']);
		assert.match(children[0].descriptor.label, /service unreachable/);
		fail = false;
		await failing.loadMore(root);
		assert.ok((await failing.getChildren(root)).every((n) => n.descriptor.kind === 'organisation'));
	});

	it('shows the organisations as a tree, to any depth, with users at the level they belong to', async function () {
		const paths = await organisationPaths(model);
		assert.deepEqual(paths, [
			'Acme Recruitment Group',
			'Acme Recruitment Group > Acme North',
			'Acme Recruitment Group > Acme North > Acme Leeds',
			'Acme Recruitment Group > Acme North > Acme Manchester',
			'Acme Recruitment Group > Acme South',
			'Acme Recruitment Group > Acme South > Acme Bristol',
			'Acme Recruitment Group > Acme South > Acme London',
		]);
		const [group] = await model.getChildren(model.roots()[0]);
		const children = await model.getChildren(group);
		assert.deepEqual(
			kinds(children).filter((k, i, all) => all.indexOf(k) === i),
			['organisation', 'user'],
			'its organisations, then its own users',
		);
		const own = children.filter((n) => n.data.kind === 'user');
		assert.ok(own.every((n) => n.data.kind === 'user' && n.data.user.organisationId === 1));
		assert.ok(own.some((n) => n.data.kind === 'user' && n.data.user.username === 'demo.admin'));
	});

	it("asks for each organisation's part of the tree at most once per refresh, and again after one", async function () {
		const { calls, model: counting } = countingModel();
		const userLists = () => calls.userList ?? 0;
		await organisationPaths(counting);
		const first = userLists();
		assert.ok(first <= 1 + 7, `one UserList for the account and at most one per organisation (${first})`);
		await organisationPaths(counting);
		assert.equal(userLists(), first, 'expanding again asks nothing');
		counting.refresh();
		await organisationPaths(counting);
		assert.equal(userLists(), first * 2, 'a refresh reads the hierarchy again');
	});

	it('falls back to the flat list, and says so, when the login cannot list users', async function () {
		const flat = accountModelFor(wb, {
			client: async () => {
				const client = await wb.services.activeClient();
				return new Proxy(client, {
					get(target, key, receiver) {
						if (key === 'userList') return async () => Promise.reject(new Error('not an administrator'));
						return Reflect.get(target, key, receiver) as unknown;
					},
				});
			},
		});
		const top = await flat.getChildren(flat.roots()[0]);
		assert.equal(top[0].descriptor.kind, 'message');
		assert.match(top[0].descriptor.label, /^Flat list: this login cannot list users/);
		const organisations = top.filter((n) => n.data.kind === 'organisation');
		assert.ok(organisations.length >= 2, 'organisations from the adverts the login sees');
		for (const org of organisations.slice(0, 2)) {
			assert.ok(
				(await flat.getChildren(org)).every((n) => n.data.kind !== 'organisation'),
				'flat',
			);
		}
	});

	it('shows only one organisation and those below it when filtered from there', async function () {
		model.setFilters({ organisation: '3', organisationName: 'Acme South' });
		assert.deepEqual(await organisationPaths(model), [
			'Acme South',
			'Acme South > Acme Bristol',
			'Acme South > Acme London',
		]);
		model.setFilters({});
	});

	it('locates an advert of an organisation two levels down', async function () {
		const client = await wb.services.activeClient();
		const page = await client.getAdvertPaged({
			sStartOrganisation: '4',
			sSearchDays: '-1',
			CurrentPage: 1,
			RowsPerPage: 1,
		});
		const advert = page.Adverts![0];
		assert.equal(advert.OrganisationID, 4);
		const node = await model.locateAdvert(advert);
		assert.equal(node?.descriptor.id, `advert:sandbox:${advert.AdvertID}`);
		const path: string[] = [];
		for (let n = node?.parent; n; n = n.parent) path.unshift(n.descriptor.label);
		assert.deepEqual(path.slice(1, 4), ['Acme Recruitment Group', 'Acme North', 'Acme Manchester']);
	});

	it('reads nothing and reports no error while the sandbox stops, resets or starts', async function () {
		let state = 'resetting';
		let reads = 0;
		let failNext: (() => void) | undefined;
		const resetting = accountModelFor(wb, {
			sandboxState: () => state,
			client: async () => {
				reads++;
				// The old sandbox goes away under a read begun before the reset.
				await new Promise<void>((resolve) => (failNext = resolve));
				throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
			},
		});
		const [root] = resetting.roots();
		assert.equal(root.descriptor.description, 'built-in · resetting');
		assert.deepEqual(await resetting.getChildren(root), []);
		assert.equal(reads, 0, 'nothing is read during the reset');

		state = 'running';
		const stale = resetting.getChildren(root);
		await new Promise((resolve) => setImmediate(resolve));
		state = 'resetting';
		resetting.refresh();
		failNext!();
		assert.deepEqual(await stale, [], 'the read begun before the refresh is thrown away, its error too');
		assert.deepEqual(await resetting.getChildren(root), []);
	});

	it('shows no nodes while the sandbox is stopped (the view shows its welcome instead)', function () {
		const stopped = accountModelFor(wb, { sandboxState: () => 'stopped' });
		assert.deepEqual(stopped.roots(), []);
	});
});
