// The handover screens' public entry (issue 29): what the applications and donations screens
// show of it.
export { DonorPickupSection } from './components/DonorPickupSection';
export { HandoverLinkSection } from './components/HandoverLinkSection';
export { useGetLocationsQuery, type LocationAnswer } from './api/handovers-api';
