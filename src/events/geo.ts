import type { AppContext } from '../context';
import { given, visibleStatuses, type Problems } from '../posts';
import type { EventListArgs } from './list-args';
import { venuesInBox } from './store/event-list';

/** The radius search of the events list (`geoloc_lat`, `geoloc_lng`, `geoloc_radius`). */

interface GeoPoint {
  lat: number;
  lng: number;
  radiusKm: number;
}

/** A radius search needs both coordinates; the radius defaults to 25 km. */
export function geoPoint(args: EventListArgs, problems: Problems): GeoPoint | null {
  const { geoloc_lat: lat, geoloc_lng: lng, geoloc_radius: radius } = args;
  if (!given(lat) && !given(lng)) return null;
  if (!given(lat)) problems.add('geoloc_lat', 'is required with geoloc_lng');
  if (!given(lng)) problems.add('geoloc_lng', 'is required with geoloc_lat');
  if (given(lat) && Math.abs(lat) > 90) problems.add('geoloc_lat', 'must be between -90 and 90');
  if (given(lng) && Math.abs(lng) > 180) problems.add('geoloc_lng', 'must be between -180 and 180');
  if (given(radius) && !(radius > 0)) problems.add('geoloc_radius', 'must be a positive number');
  if (!given(lat) || !given(lng)) return null;
  return { lat, lng, radiusKm: radius ?? 25 };
}

const EARTH_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI * EARTH_KM) / 180;
const rad = (deg: number): number => (deg * Math.PI) / 180;

function haversineKm(aLat: number, aLng: number, bLat: number, bLng: number): number {
  const h =
    Math.sin(rad(bLat - aLat) / 2) ** 2 +
    Math.cos(rad(aLat)) * Math.cos(rad(bLat)) * Math.sin(rad(bLng - aLng) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Venues within the radius: a bounding box the index can serve, then the exact great-circle
 * distance here, so the list's count and page filter on exactly the same venue ids.
 */
export async function nearVenueIds(ctx: AppContext, p: GeoPoint): Promise<number[]> {
  // A hair of margin so rounding never drops a venue sitting on the circle.
  const dLat = (p.radiusKm / KM_PER_DEGREE) * 1.0001;
  const minLat = Math.max(-90, p.lat - dLat);
  const maxLat = Math.min(90, p.lat + dLat);
  const widest = Math.cos(rad(Math.max(Math.abs(minLat), Math.abs(maxLat))));
  const dLng = widest > 1e-9 ? dLat / widest : 360;
  const wraps = p.lng - dLng < -180 || p.lng + dLng > 180;
  const box = wraps
    ? { minLat, maxLat, minLng: null, maxLng: null }
    : { minLat, maxLat, minLng: p.lng - dLng, maxLng: p.lng + dLng };
  // Only venues the caller sees: a hidden venue's place selects no event.
  const candidates = await venuesInBox(ctx.db, box, visibleStatuses(ctx));
  return candidates
    .filter((v) => haversineKm(p.lat, p.lng, v.geo_lat, v.geo_lng) <= p.radiusKm)
    .map((v) => v.id);
}
