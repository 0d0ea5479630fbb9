/**
 * The `.mpreq` request file format (docs/request-files.md "Request files as tests"). The implementation lives in
 * requestFiles/; this module is its public surface, so callers import one place.
 */
export * from './requestFiles/placeholders';
export * from './requestFiles/placeholderRedactor';
export * from './requestFiles/xmlBody';
export * from './requestFiles/rawHttp';
export * from './requestFiles/issues';
export * from './requestFiles/expressions';
export * from './requestFiles/format';
export * from './requestFiles/resultPaths';
export * from './requestFiles/evaluate';
export * from './requestFiles/variables';
export * from './requestFiles/language';
