/** Vocabulary of the benchmark dataset. `jazz` appears only in GENRES (see SEARCH_WORD). */

export const ADJECTIVES = [
  'Summer',
  'Winter',
  'Spring',
  'Autumn',
  'Late',
  'Early',
  'Grand',
  'Little',
  'Open',
  'Secret',
  'Family',
  'Downtown',
  'Riverside',
  'Midnight',
  'Sunday',
  'Friday',
];

// Twenty genres: a word in one of them matches ~5% of titles.
export const GENRES = [
  'Jazz',
  'Blues',
  'Folk',
  'Rock',
  'Poetry',
  'Comedy',
  'Film',
  'Wine',
  'Food',
  'Craft',
  'Science',
  'History',
  'Garden',
  'Chess',
  'Salsa',
  'Tango',
  'Photo',
  'Book',
  'Design',
  'Coding',
];

export const FORMATS = [
  'Night',
  'Festival',
  'Workshop',
  'Meetup',
  'Session',
  'Fair',
  'Club',
  'Walk',
  'Talk',
  'Market',
];

export const VENUE_KINDS = ['Hall', 'Theatre', 'Park', 'Library', 'Club', 'Gallery', 'Arena'];

/** Filler words of descriptions and excerpts; the first 25 also name the tags. */
export const WORDS = [
  'outdoor',
  'family',
  'free',
  'weekly',
  'local',
  'live',
  'kids',
  'evening',
  'morning',
  'vintage',
  'acoustic',
  'seasonal',
  'charity',
  'student',
  'senior',
  'beginner',
  'advanced',
  'social',
  'indoor',
  'accessible',
  'vegan',
  'tasting',
  'guided',
  'hands-on',
  'networking',
  'join',
  'us',
  'for',
  'an',
  'afternoon',
  'of',
  'music',
  'stories',
  'friends',
  'and',
  'neighbours',
  'with',
  'snacks',
  'drinks',
  'games',
  'the',
  'whole',
  'city',
  'welcome',
  'bring',
  'your',
  'ideas',
];

export interface City {
  city: string;
  country: string;
  state?: string;
  province?: string;
  zone: string;
  lat: number;
  lng: number;
}

export const CITIES: City[] = [
  {
    city: 'New York',
    country: 'United States',
    state: 'NY',
    zone: 'America/New_York',
    lat: 40.71,
    lng: -74.0,
  },
  {
    city: 'Chicago',
    country: 'United States',
    state: 'IL',
    zone: 'America/Chicago',
    lat: 41.88,
    lng: -87.63,
  },
  {
    city: 'Denver',
    country: 'United States',
    state: 'CO',
    zone: 'America/Denver',
    lat: 39.74,
    lng: -104.99,
  },
  {
    city: 'Los Angeles',
    country: 'United States',
    state: 'CA',
    zone: 'America/Los_Angeles',
    lat: 34.05,
    lng: -118.24,
  },
  {
    city: 'Toronto',
    country: 'Canada',
    province: 'ON',
    zone: 'America/Toronto',
    lat: 43.65,
    lng: -79.38,
  },
  { city: 'London', country: 'United Kingdom', zone: 'Europe/London', lat: 51.51, lng: -0.13 },
  { city: 'Paris', country: 'France', zone: 'Europe/Paris', lat: 48.86, lng: 2.35 },
  { city: 'Berlin', country: 'Germany', zone: 'Europe/Berlin', lat: 52.52, lng: 13.4 },
  { city: 'Madrid', country: 'Spain', zone: 'Europe/Madrid', lat: 40.42, lng: -3.7 },
  { city: 'Tokyo', country: 'Japan', zone: 'Asia/Tokyo', lat: 35.68, lng: 139.69 },
  {
    city: 'Sydney',
    country: 'Australia',
    province: 'NSW',
    zone: 'Australia/Sydney',
    lat: -33.87,
    lng: 151.21,
  },
  { city: 'São Paulo', country: 'Brazil', zone: 'America/Sao_Paulo', lat: -23.55, lng: -46.63 },
];
