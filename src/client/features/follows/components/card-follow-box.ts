/** The same room in every state, so a card's line never wraps differently once the button arrives. */
export const CARD_FOLLOW_BOX = 'inline-flex h-6 w-[5.5rem] shrink-0 items-center justify-center';
