/** Points as people read them: no float noise (7.499999 -> 7.5), no trailing zeros. */
export const formatPoints = (value: number) => String(Math.round(value * 100) / 100);
