// How a graded pick's result reads wherever it is shown (cards, the pick page, its log entries): a word and,
// for a decided pick, its units: 'Won +1.8u', 'Lost −1u', 'Push', 'Void'.

export type PickResultWord = 'win' | 'loss' | 'push' | 'void';

export const RESULT_WORD: Record<PickResultWord, string> = {
  win: 'Won',
  loss: 'Lost',
  push: 'Push',
  void: 'Void',
};

/** Units to a tenth, without a trailing '.0', signed with a true minus: '+1.8u', '−1u', '0u'. */
export function formatResultUnits(units: number): string {
  const rounded = Math.round(units * 10) / 10;
  const sign = rounded > 0 ? '+' : rounded < 0 ? '−' : '';
  return `${sign}${Math.abs(rounded).toLocaleString('en-US', { maximumFractionDigits: 1 })}u`;
}

/** 'Won +1.8u' / 'Lost −1u' / 'Push' / 'Void': units only where they moved. */
export function resultText(result: PickResultWord, unitsWon: number | null | undefined): string {
  const word = RESULT_WORD[result];
  if ((result === 'win' || result === 'loss') && unitsWon != null)
    return `${word} ${formatResultUnits(unitsWon)}`;
  return word;
}
