/** The libxml2 port lives in src/protocol/schema so the sandbox's journal can check requests with it too. */
export { loadLibxml2Validator, type Libxml2XsdValidator } from '../../protocol/schema/libxml2Validator';
