/** The app's web API (`/api/app/com.openweather.station/weather`): the latest readings of each station. */
module.exports = {
  async current({ homey }) {
    return homey.drivers
      .getDriver('station')
      .getDevices()
      .map((device) => ({ name: device.getName(), ...(device.latest ?? {}) }));
  },
};
