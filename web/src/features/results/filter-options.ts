/** One choice of a statistics filter: what the URL carries, and what the select shows. */
export interface FilterOption {
  value: string;
  label: string;
}

/**
 * The options a filter select offers: the groups the game's statistics show, and the one the URL
 * names when it is not among them (a shared link to a withheld or unknown group), so the select
 * says which group the cards below are about instead of falling back to "All".
 */
export function filterOptions(
  offered: readonly string[],
  current: string,
  label: (value: string) => string = (v) => v,
): FilterOption[] {
  const options = offered.map((value) => ({ value, label: label(value) }));
  if (current !== '' && !offered.includes(current)) options.push({ value: current, label: label(current) });
  return options;
}
