/** Points as people read them: the one rule lives in packages/shared. */
export { formatPoints } from '@gradewise/shared/points';
