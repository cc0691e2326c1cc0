// The cappers feature's public entry: the record badge and its batched records hook, for the
// cards and the video page. The profile and leaderboard pages are loaded by the router on their own.
export { RecordBadge } from './components/record-badge';
export { useRecords, getRecordsQueryOptions } from './api/get-records';
export { useCapperSearch } from './api/search-cappers';
