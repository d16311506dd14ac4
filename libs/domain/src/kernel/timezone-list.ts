/**
 * Plane's time zone choices (`plane/app/views/timezone/base.py`): for each standard UTC offset,
 * the friendly names and IANA zones the web app offers.
 */
const TIMEZONE_MAPPING: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]> = [
  [
    '-1100',
    [
      ['Midway Island', 'Pacific/Midway'],
      ['American Samoa', 'Pacific/Pago_Pago'],
    ],
  ],
  [
    '-1000',
    [
      ['Hawaii', 'Pacific/Honolulu'],
      ['Aleutian Islands', 'America/Adak'],
    ],
  ],
  ['-0930', [['Marquesas Islands', 'Pacific/Marquesas']]],
  [
    '-0900',
    [
      ['Alaska', 'America/Anchorage'],
      ['Gambier Islands', 'Pacific/Gambier'],
    ],
  ],
  [
    '-0800',
    [
      ['Pacific Time (US and Canada)', 'America/Los_Angeles'],
      ['Baja California', 'America/Tijuana'],
    ],
  ],
  [
    '-0700',
    [
      ['Mountain Time (US and Canada)', 'America/Denver'],
      ['Arizona', 'America/Phoenix'],
      ['Chihuahua, Mazatlan', 'America/Chihuahua'],
    ],
  ],
  [
    '-0600',
    [
      ['Central Time (US and Canada)', 'America/Chicago'],
      ['Saskatchewan', 'America/Regina'],
      ['Guadalajara, Mexico City, Monterrey', 'America/Mexico_City'],
      ['Tegucigalpa, Honduras', 'America/Tegucigalpa'],
      ['Costa Rica', 'America/Costa_Rica'],
    ],
  ],
  [
    '-0500',
    [
      ['Eastern Time (US and Canada)', 'America/New_York'],
      ['Lima', 'America/Lima'],
      ['Bogota', 'America/Bogota'],
      ['Quito', 'America/Guayaquil'],
      ['Chetumal', 'America/Cancun'],
    ],
  ],
  ['-0430', [['Caracas (Old Venezuela Time)', 'America/Caracas']]],
  [
    '-0400',
    [
      ['Atlantic Time (Canada)', 'America/Halifax'],
      ['Caracas', 'America/Caracas'],
      ['Santiago', 'America/Santiago'],
      ['La Paz', 'America/La_Paz'],
      ['Manaus', 'America/Manaus'],
      ['Georgetown', 'America/Guyana'],
      ['Bermuda', 'Atlantic/Bermuda'],
    ],
  ],
  ['-0330', [['Newfoundland Time (Canada)', 'America/St_Johns']]],
  [
    '-0300',
    [
      ['Buenos Aires', 'America/Argentina/Buenos_Aires'],
      ['Brasilia', 'America/Sao_Paulo'],
      ['Greenland', 'America/Godthab'],
      ['Montevideo', 'America/Montevideo'],
      ['Falkland Islands', 'Atlantic/Stanley'],
    ],
  ],
  ['-0200', [['South Georgia and the South Sandwich Islands', 'Atlantic/South_Georgia']]],
  [
    '-0100',
    [
      ['Azores', 'Atlantic/Azores'],
      ['Cape Verde Islands', 'Atlantic/Cape_Verde'],
    ],
  ],
  [
    '+0000',
    [
      ['Dublin', 'Europe/Dublin'],
      ['Reykjavik', 'Atlantic/Reykjavik'],
      ['Lisbon', 'Europe/Lisbon'],
      ['Monrovia', 'Africa/Monrovia'],
      ['Casablanca', 'Africa/Casablanca'],
    ],
  ],
  [
    '+0100',
    [
      ['Central European Time (Berlin, Rome, Paris)', 'Europe/Paris'],
      ['West Central Africa', 'Africa/Lagos'],
      ['Algiers', 'Africa/Algiers'],
      ['Lagos', 'Africa/Lagos'],
      ['Tunis', 'Africa/Tunis'],
    ],
  ],
  [
    '+0200',
    [
      ['Eastern European Time (Cairo, Helsinki, Kyiv)', 'Europe/Kiev'],
      ['Athens', 'Europe/Athens'],
      ['Jerusalem', 'Asia/Jerusalem'],
      ['Johannesburg', 'Africa/Johannesburg'],
      ['Harare, Pretoria', 'Africa/Harare'],
    ],
  ],
  [
    '+0300',
    [
      ['Moscow Time', 'Europe/Moscow'],
      ['Baghdad', 'Asia/Baghdad'],
      ['Nairobi', 'Africa/Nairobi'],
      ['Kuwait, Riyadh', 'Asia/Riyadh'],
    ],
  ],
  ['+0330', [['Tehran', 'Asia/Tehran']]],
  [
    '+0400',
    [
      ['Abu Dhabi', 'Asia/Dubai'],
      ['Baku', 'Asia/Baku'],
      ['Yerevan', 'Asia/Yerevan'],
      ['Astrakhan', 'Europe/Astrakhan'],
      ['Tbilisi', 'Asia/Tbilisi'],
      ['Mauritius', 'Indian/Mauritius'],
    ],
  ],
  [
    '+0500',
    [
      ['Islamabad', 'Asia/Karachi'],
      ['Karachi', 'Asia/Karachi'],
      ['Tashkent', 'Asia/Tashkent'],
      ['Yekaterinburg', 'Asia/Yekaterinburg'],
      ['Maldives', 'Indian/Maldives'],
      ['Chagos', 'Indian/Chagos'],
    ],
  ],
  [
    '+0530',
    [
      ['Chennai', 'Asia/Kolkata'],
      ['Kolkata', 'Asia/Kolkata'],
      ['Mumbai', 'Asia/Kolkata'],
      ['New Delhi', 'Asia/Kolkata'],
      ['Sri Jayawardenepura', 'Asia/Colombo'],
    ],
  ],
  ['+0545', [['Kathmandu', 'Asia/Kathmandu']]],
  [
    '+0600',
    [
      ['Dhaka', 'Asia/Dhaka'],
      ['Almaty', 'Asia/Almaty'],
      ['Bishkek', 'Asia/Bishkek'],
      ['Thimphu', 'Asia/Thimphu'],
    ],
  ],
  [
    '+0630',
    [
      ['Yangon (Rangoon)', 'Asia/Yangon'],
      ['Cocos Islands', 'Indian/Cocos'],
    ],
  ],
  [
    '+0700',
    [
      ['Bangkok', 'Asia/Bangkok'],
      ['Hanoi', 'Asia/Ho_Chi_Minh'],
      ['Jakarta', 'Asia/Jakarta'],
      ['Novosibirsk', 'Asia/Novosibirsk'],
      ['Krasnoyarsk', 'Asia/Krasnoyarsk'],
    ],
  ],
  [
    '+0800',
    [
      ['Beijing', 'Asia/Shanghai'],
      ['Singapore', 'Asia/Singapore'],
      ['Perth', 'Australia/Perth'],
      ['Hong Kong', 'Asia/Hong_Kong'],
      ['Ulaanbaatar', 'Asia/Ulaanbaatar'],
      ['Palau', 'Pacific/Palau'],
    ],
  ],
  ['+0845', [['Eucla', 'Australia/Eucla']]],
  [
    '+0900',
    [
      ['Tokyo', 'Asia/Tokyo'],
      ['Seoul', 'Asia/Seoul'],
      ['Yakutsk', 'Asia/Yakutsk'],
    ],
  ],
  [
    '+0930',
    [
      ['Adelaide', 'Australia/Adelaide'],
      ['Darwin', 'Australia/Darwin'],
    ],
  ],
  [
    '+1000',
    [
      ['Sydney', 'Australia/Sydney'],
      ['Brisbane', 'Australia/Brisbane'],
      ['Guam', 'Pacific/Guam'],
      ['Vladivostok', 'Asia/Vladivostok'],
      ['Tahiti', 'Pacific/Tahiti'],
    ],
  ],
  ['+1030', [['Lord Howe Island', 'Australia/Lord_Howe']]],
  [
    '+1100',
    [
      ['Solomon Islands', 'Pacific/Guadalcanal'],
      ['Magadan', 'Asia/Magadan'],
      ['Norfolk Island', 'Pacific/Norfolk'],
      ['Bougainville Island', 'Pacific/Bougainville'],
      ['Chokurdakh', 'Asia/Srednekolymsk'],
    ],
  ],
  [
    '+1200',
    [
      ['Auckland', 'Pacific/Auckland'],
      ['Wellington', 'Pacific/Auckland'],
      ['Fiji Islands', 'Pacific/Fiji'],
      ['Anadyr', 'Asia/Anadyr'],
    ],
  ],
  ['+1245', [['Chatham Islands', 'Pacific/Chatham']]],
  [
    '+1300',
    [
      ["Nuku'alofa", 'Pacific/Tongatapu'],
      ['Samoa', 'Pacific/Apia'],
    ],
  ],
  ['+1400', [['Kiritimati Island', 'Pacific/Kiritimati']]],
];

export interface TimezoneChoice {
  utc_offset: string;
  gmt_offset: string;
  value: string;
  label: string;
}

/** The zone's offset from UTC now, in minutes (east positive). */
function offsetMinutes(zone: string, now: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(now)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name ?? '');
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

/**
 * `GET /api/timezones/` (Plane's `TimezoneEndpoint`): `{timezones: [{utc_offset, gmt_offset, value,
 * label}]}`, `utc_offset` the zone's standard offset (`UTC-05:00`), `gmt_offset` its offset now
 * (`GMT-04:00` in summer), sorted by the offset now, then by label. Zones the runtime does not know
 * are left out, as Plane leaves out those pytz does not.
 */
export function timezoneChoices(now = new Date()): { timezones: TimezoneChoice[] } {
  const list: Array<TimezoneChoice & { offset: number }> = [];
  for (const [offset, places] of TIMEZONE_MAPPING) {
    const utc = `UTC${offset[0]}${offset.slice(1, 3)}:${offset.slice(3) || '00'}`;
    for (const [label, zone] of places) {
      let minutes: number;
      try {
        minutes = offsetMinutes(zone, now);
      } catch {
        continue;
      }
      const abs = Math.abs(minutes);
      const hh = String(Math.floor(abs / 60)).padStart(2, '0');
      const mm = String(abs % 60).padStart(2, '0');
      list.push({
        offset: minutes,
        utc_offset: utc,
        gmt_offset: `GMT${minutes < 0 ? '-' : '+'}${hh}:${mm}`,
        value: zone,
        label,
      });
    }
  }
  list.sort((a, b) => a.offset - b.offset || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return { timezones: list.map(({ offset: _offset, ...rest }) => rest) };
}
