#!/usr/bin/env node
// Corrects the file layer (VFS) of node-sqlite3-wasm so that SQLite can recover from a crash.
//
// The binding's VFS takes one `<db>.lock` directory for every lock level and answers "another
// connection holds RESERVED" whenever that directory exists, including when this very connection
// created it for its SHARED lock. SQLite asks exactly that question to decide whether a leftover
// rollback journal is hot, so after a crash it never rolled the journal back: it read the
// uncommitted pages and its next write deleted the journal. A failed write also always said
// "disk I/O error", even when the disk was full.
//
// The patch, applied to dist/node-sqlite3-wasm.js:
//  - xLock/xUnlock remember the level held (in the file's existing `isLocked` word, read only by this JS);
//  - xCheckReservedLock answers from that level while this connection holds the lock directory (the
//    directory excludes every other connection, so nobody else can hold RESERVED), and from the
//    directory's existence only when this connection holds no lock;
//  - xWrite finishes short writes and maps ENOSPC/EDQUOT to SQLITE_FULL ("database or disk is full");
//  - writes that extend a write-ahead log (`*-wal`) are combined in memory and reach the file in one
//    write when the transaction commits: SQLite writes each frame as a 24-byte header and a page, so a
//    commit of 15 pages cost 30 write calls. Every other file operation (a read, another file's write,
//    a sync, truncate, size, close, delete, lock) first writes what is pending, so the file system sees
//    the very same writes in the very same order, only fewer calls. A log sync with SQLITE_SYNC_NORMAL
//    is a commit's (the store asks for synchronous=FULL with checkpoint_fullfsync, so commits sync with
//    NORMAL and checkpoints with FULL): it writes what is pending without fsync, which keeps
//    synchronous=NORMAL's durability (a killed process loses no commit; a power cut may lose the
//    last ones) while a failed write makes the COMMIT itself fail and roll back; an operation whose
//    pending write fails answers with that write's error (a full disk stays SQLITE_FULL), and what was
//    not written stays pending, to be written first at the next operation: SQLite goes on believing
//    a spilled page is in the log after a failed read, so nothing it was told is written may be lost;
//  - the module exports `multipostingVfsPatch`, which the product checks before opening a file.
//
// Every replaced fragment must be found exactly once, or the patch refuses (a new binding version
// needs a new look). Applying it twice changes nothing. Used by `npm install` (postinstall), by
// esbuild.mjs when bundling, and by the tests; run by hand: `node scripts/sqlite-vfs-patch.cjs`.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');

/** Bump when the patch changes; src/emulator/store/engine.ts requires this exact value. */
const PATCH_VERSION = 2;
const MARKER = `Module.multipostingVfsPatch=${PATCH_VERSION};`;

const REPLACEMENTS = [
	{
		name: 'xLock records the level',
		from: 'function _nodejsLock(fi,level){if(!_isLocked(fi)){try{fs.mkdirSync(`${_path(fi)}.lock`)}catch(err){return err.code=="EEXIST"?SQLITE_BUSY:SQLITE_IOERR_LOCK}_setLocked(fi,true)}return SQLITE_OK}',
		to: 'function _nodejsLock(fi,level){if(_wc.len>0&&_wcFlush()!=SQLITE_OK)return _wc.code;if(!_isLocked(fi)){try{fs.mkdirSync(`${_path(fi)}.lock`)}catch(err){return err.code=="EEXIST"?SQLITE_BUSY:SQLITE_IOERR_LOCK}}if(getValue(fi+8,"i32")<level)setValue(fi+8,level,"i32");return SQLITE_OK}',
	},
	{
		name: 'xUnlock lowers the level',
		from: 'function _nodejsUnlock(fi,level){if(level==SQLITE_LOCK_NONE&&_isLocked(fi)){try{fs.rmdirSync(`${_path(fi)}.lock`)}catch(err){if(err.code!="ENOENT")return SQLITE_IOERR_UNLOCK}_setLocked(fi,false)}return SQLITE_OK}',
		to: 'function _nodejsUnlock(fi,level){if(_wc.len>0&&_wcFlush()!=SQLITE_OK)return _wc.code;if(level==SQLITE_LOCK_NONE&&_isLocked(fi)){try{fs.rmdirSync(`${_path(fi)}.lock`)}catch(err){if(err.code!="ENOENT")return SQLITE_IOERR_UNLOCK}_setLocked(fi,false)}else if(getValue(fi+8,"i32")>level){setValue(fi+8,level,"i32")}return SQLITE_OK}',
	},
	{
		name: 'xCheckReservedLock does not count our own lock',
		from: 'function _nodejsCheckReservedLock(fi,outResult){try{',
		to: 'function _nodejsCheckReservedLock(fi,outResult){const held=getValue(fi+8,"i32");if(held!=0){setValue(outResult,held>1?1:0,"i32");return SQLITE_OK}try{',
	},
	{
		name: 'xWrite: whole writes, disk full is SQLITE_FULL',
		from: 'function _nodejsWrite(fi,buffer,bytes,offset){try{const bytesWritten=fs.writeSync(_fd(fi),HEAPU8.subarray(buffer,buffer+bytes),0,bytes,_safeInt(offset));return bytesWritten!=bytes?SQLITE_IOERR_WRITE:SQLITE_OK}catch{return SQLITE_IOERR_WRITE}}',
		to: 'const _wc={fd:-1,at:0,len:0,buf:Buffer.allocUnsafe(65536),code:0,wal:new Map};function _wcFlush(){let done=0;try{while(done<_wc.len){const n=fs.writeSync(_wc.fd,_wc.buf,done,_wc.len-done,_wc.at+done);if(n<=0)throw new Error("short write");done+=n}}catch(err){if(done>0){_wc.buf.copyWithin(0,done,_wc.len);_wc.at+=done;_wc.len-=done}_wc.code=err&&(err.code=="ENOSPC"||err.code=="EDQUOT")?13:SQLITE_IOERR_WRITE;return _wc.code}_wc.len=0;return SQLITE_OK}function _wcIsLog(fi,fd){let log=_wc.wal.get(fd);if(log===undefined){log=_path(fi).endsWith("-wal");_wc.wal.set(fd,log)}return log}function _wcAppend(fd,at,src){if(_wc.len>0&&(_wc.fd!=fd||_wc.at+_wc.len!=at||_wc.len+src.length>4194304)&&_wcFlush()!=SQLITE_OK)return _wc.code;if(_wc.len==0){_wc.fd=fd;_wc.at=at}if(_wc.len+src.length>_wc.buf.length){const bigger=Buffer.allocUnsafe(Math.max(_wc.buf.length*2,_wc.len+src.length));_wc.buf.copy(bigger,0,0,_wc.len);_wc.buf=bigger}_wc.buf.set(src,_wc.len);_wc.len+=src.length;return SQLITE_OK}function _nodejsWrite(fi,buffer,bytes,offset){try{const fd=_fd(fi),at=_safeInt(offset);if(_wcIsLog(fi,fd))return _wcAppend(fd,at,HEAPU8.subarray(buffer,buffer+bytes));if(_wc.len>0&&_wcFlush()!=SQLITE_OK)return _wc.code;let done=0;while(done<bytes){const n=fs.writeSync(fd,HEAPU8.subarray(buffer+done,buffer+bytes),0,bytes-done,at+done);if(n<=0)return SQLITE_IOERR_WRITE;done+=n}return SQLITE_OK}catch(err){return err&&(err.code=="ENOSPC"||err.code=="EDQUOT")?13:SQLITE_IOERR_WRITE}}',
	},
	{
		name: 'xRead writes what is pending first',
		from: 'function _nodejsRead(fi,outBuffer,bytes,offset){const buf=',
		to: 'function _nodejsRead(fi,outBuffer,bytes,offset){if(_wc.len>0&&_wcFlush()!=SQLITE_OK)return _wc.code; const buf=',
	},
	{
		name: 'xSync: a commit of the log writes what is pending, a checkpoint also fsyncs',
		from: 'function _nodejsSync(fi,flags){try{fs.fsyncSync(_fd(fi))}',
		to: 'function _nodejsSync(fi,flags){if(_wc.len>0&&_wcFlush()!=SQLITE_OK)return _wc.code; if((flags&15)==2&&_wcIsLog(fi,_fd(fi)))return SQLITE_OK;try{fs.fsyncSync(_fd(fi))}',
	},
	{
		name: 'xTruncate writes what is pending first',
		from: 'function _nodejsTruncate(fi,size){try{',
		to: 'function _nodejsTruncate(fi,size){if(_wc.len>0&&_wcFlush()!=SQLITE_OK)return _wc.code; try{',
	},
	{
		name: 'xFileSize writes what is pending first',
		from: 'function _nodejsFileSize(fi,outSize){try{',
		to: 'function _nodejsFileSize(fi,outSize){if(_wc.len>0&&_wcFlush()!=SQLITE_OK)return _wc.code; try{',
	},
	{
		name: 'xClose writes what is pending first',
		from: 'function _nodejsClose(fi){_nodejsUnlock(fi,SQLITE_LOCK_NONE);try{fs.closeSync(_fd(fi))}',
		to: 'function _nodejsClose(fi){if(_wc.len>0&&_wcFlush()!=SQLITE_OK)return _wc.code; _nodejsUnlock(fi,SQLITE_LOCK_NONE);try{_wc.wal.delete(_fd(fi));fs.closeSync(_fd(fi))}',
	},
	{
		name: 'xDelete writes what is pending first',
		from: 'function _nodejsDelete(vfs,filePath,dirSync){const pathStr=',
		to: 'function _nodejsDelete(vfs,filePath,dirSync){if(_wc.len>0&&_wcFlush()!=SQLITE_OK)return _wc.code; const pathStr=',
	},
	{
		name: 'marker',
		from: 'Module.Database=Database;Module.SQLite3Error=SQLite3Error;',
		to: `Module.Database=Database;Module.SQLite3Error=SQLite3Error;${MARKER}`,
	},
];

function count(text, fragment) {
	let n = 0;
	for (let at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + 1)) n++;
	return n;
}

/**
 * The patched text of dist/node-sqlite3-wasm.js; `changed` is false when it was patched already.
 * Throws when the text is neither the known original nor fully patched.
 */
function patchSource(text) {
	const patched = REPLACEMENTS.every((r) => count(text, r.to) === 1);
	if (patched) return { text, changed: false };
	if (text.includes('Module.multipostingVfsPatch=')) {
		throw new Error(
			'node-sqlite3-wasm carries another version of the multiposting VFS patch; reinstall it (npm ci).',
		);
	}
	let out = text;
	for (const r of REPLACEMENTS) {
		const found = count(out, r.from);
		if (found !== 1) {
			throw new Error(
				`node-sqlite3-wasm: the VFS patch step "${r.name}" expected its fragment once and found it ${found} times. ` +
					'This version of the binding needs the patch in scripts/sqlite-vfs-patch.cjs to be looked at again.',
			);
		}
		out = out.replace(r.from, () => r.to);
	}
	return { text: out, changed: true };
}

/** Patches the installed file in place; returns what happened. */
function patchInstalled(file = require.resolve('node-sqlite3-wasm')) {
	const { text, changed } = patchSource(readFileSync(file, 'utf8'));
	if (changed) writeFileSync(file, text);
	return { file, changed };
}

module.exports = { PATCH_VERSION, patchSource, patchInstalled };

if (require.main === module) {
	try {
		const { file, changed } = patchInstalled();
		console.log(`sqlite-vfs-patch: ${changed ? 'patched' : 'already patched'} ${file}`);
	} catch (error) {
		console.error(`sqlite-vfs-patch: ${error.message}`);
		process.exit(1);
	}
}
