export { ParcelTracking } from './ParcelTracking.tsx';
export { PostItPanel } from './PostItPanel.tsx';
