// How usernames are compared (docs/product-decisions.md 'Accounts'): stored as typed, compared by a
// normalised key, and a new name is refused when its confusable skeleton matches an existing one's.
import { createRequire } from 'node:module';
import type unhomoglyphType from 'unhomoglyph';

/**
 * unhomoglyph's confusables table (thousands of entries, held on the heap) is loaded with the first name that
 * needs a skeleton (a registration, a rename), not at start: an idle server does not keep it.
 */
let unhomoglyph: typeof unhomoglyphType | undefined;
const load = createRequire(import.meta.url);

/**
 * NFKC, then full case folding. JavaScript has no case fold; upper- then lower-casing gives the same
 * equalities for the letters a username may hold ('ß' and 'SS' meet at 'ss', final 'ς' and 'σ' meet).
 * Login and every lookup compare this: 'ＣＡＰＰＥＲ' names the account 'capper'.
 */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/** Unicode TR39 skeleton: NFD, each character replaced by its confusables.txt prototype, NFD again. */
function tr39Skeleton(text: string): string {
  unhomoglyph ??= load('unhomoglyph') as typeof unhomoglyphType;
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/**
 * The look-alike class of a username. TR39's skeleton is case-sensitive ('I' looks like 'l', 'i' does
 * not), while our names are case-insensitive: so the skeleton of the name as typed (after NFKC) is case
 * folded and skeletonised again. 'Ilya'/'llya', 'Cаpper'(Cyrillic а)/'capper', 'rn'/'m' all meet here.
 */
export function usernameSkeleton(username: string): string {
  return tr39Skeleton(tr39Skeleton(username.normalize('NFKC')).toUpperCase().toLowerCase());
}
