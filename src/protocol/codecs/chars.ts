/**
 * Character codes the XML scanners compare with (xml/ and fastRecords.ts). Plain numeric consts:
 * they sit on the codecs' hot paths, and a bundler hoists them into one scope with their users.
 */
export const CH_TAB = 0x09;
export const CH_LF = 0x0a;
export const CH_CR = 0x0d;
export const CH_SPACE = 0x20;
export const CH_BANG = 0x21;
export const CH_DQUOTE = 0x22;
export const CH_HASH = 0x23;
export const CH_AMP = 0x26;
export const CH_SQUOTE = 0x27;
export const CH_DASH = 0x2d;
export const CH_SLASH = 0x2f;
export const CH_COLON = 0x3a;
export const CH_SEMI = 0x3b;
export const CH_LT = 0x3c;
export const CH_EQ = 0x3d;
export const CH_GT = 0x3e;
export const CH_QUESTION = 0x3f;
export const CH_X = 0x78;
