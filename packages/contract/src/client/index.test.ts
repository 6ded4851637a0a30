import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { hubManager } from '../operation';
import { deriveMethods, ParameterError, type PreparedRequest, prepareRequest } from './index';

const op = hubManager('zones');
const zones = {
  updateZone: op({
    name: 'updateZone',
    method: 'PUT',
    path: '/zone/:id',
    scope: 'homey.zone',
    params: Type.Object({ id: Type.String() }),
    body: Type.Object({ name: Type.String() }),
    bodyRoot: 'zone',
  }),
  getLog: op({
    name: 'getLog',
    method: 'GET',
    path: '/log/:uri/:id',
    scope: null,
    params: Type.Object({ uri: Type.String(), id: Type.String() }),
    query: Type.Object({ resolution: Type.Optional(Type.String()), limit: Type.Optional(Type.Number()) }),
  }),
  setName: op({
    name: 'setName',
    method: 'PUT',
    path: '/name',
    scope: null,
    body: Type.Object({ name: Type.String(), note: Type.Optional(Type.String()) }),
  }),
  reboot: op({ name: 'reboot', method: 'POST', path: '/reboot', scope: null }),
  setRegion: op({
    name: 'setRegion',
    method: 'PUT',
    path: '/option/region',
    scope: null,
    body: Type.Object({ value: Type.Union([Type.Null(), Type.Enum(['EU', 'US'])]) }),
  }),
} as const;

describe('prepareRequest', () => {
  it('fills and encodes path parameters and sends a whole-body parameter as the body', () => {
    const request = prepareRequest(zones.updateZone, { id: 'a/b', zone: { name: 'Kitchen' } });
    expect(request).toMatchObject({ method: 'PUT', path: '/zone/a%2Fb', body: { name: 'Kitchen' }, query: {} });
  });

  it('puts query parameters in the query and sends no body on GET', () => {
    const request = prepareRequest(zones.getLog, {
      uri: 'homey:device:1',
      id: 'measure_power',
      resolution: 'last24Hours',
      limit: 5,
    });
    expect(request.path).toBe('/log/homey%3Adevice%3A1/measure_power');
    expect(request.query).toEqual({ resolution: 'last24Hours', limit: '5' });
    expect(request.body).toBeUndefined();
  });

  it('picks body fields by name and drops unknown keys', () => {
    expect(prepareRequest(zones.setName, { name: 'Home', $validate: false }).body).toEqual({ name: 'Home' });
  });

  it('always sends a JSON body on POST and PUT', () => {
    expect(prepareRequest(zones.reboot, undefined).body).toEqual({});
  });

  it("throws 'Missing Parameter: {name}' before any request", () => {
    expect(() => prepareRequest(zones.getLog, { uri: 'x' })).toThrow(new ParameterError('Missing Parameter: id'));
    expect(() => prepareRequest(zones.updateZone, { id: 'x' })).toThrow('Missing Parameter: zone');
  });

  it("throws 'Invalid Parameter Type: {name}. Got: X. Expected: Y'", () => {
    expect(() => prepareRequest(zones.setName, { name: 5 })).toThrow(
      'Invalid Parameter Type: name. Got: number. Expected: string',
    );
    expect(() => prepareRequest(zones.getLog, { uri: 'x', id: ['a'] })).toThrow(
      'Invalid Parameter Type: id. Got: array. Expected: string',
    );
  });

  it('leaves the type of a value to the server when one branch of a union has no plain type', () => {
    expect(prepareRequest(zones.setRegion, { value: 'EU' }).body).toEqual({ value: 'EU' });
    expect(prepareRequest(zones.setRegion, { value: null }).body).toEqual({ value: null });
  });
});

describe('deriveMethods', () => {
  it('derives one method per operation, named as the operation, that sends the prepared request', async () => {
    const sent: PreparedRequest[] = [];
    const methods = deriveMethods(zones, async (request) => {
      sent.push(request);
      return 'ok';
    });
    expect(Object.keys(methods).sort()).toEqual(['getLog', 'reboot', 'setName', 'setRegion', 'updateZone']);
    await expect(methods.setName({ name: 'Home' })).resolves.toBe('ok');
    expect(sent[0]).toMatchObject({ method: 'PUT', path: '/name', body: { name: 'Home' } });
    await expect(methods.setName({} as never)).rejects.toThrow('Missing Parameter: name');
    expect(sent).toHaveLength(1);
  });
});

describe('DELETE bodies', () => {
  const remove = hubManager('accounts')({
    name: 'removeAccount',
    method: 'DELETE',
    path: '/account/:id',
    scope: null,
    params: Type.Object({ id: Type.String() }),
    body: Type.Optional(Type.Object({ password: Type.Optional(Type.String()) })),
  });
  const plain = hubManager('accounts')({
    name: 'removeThing',
    method: 'DELETE',
    path: '/thing/:id',
    scope: null,
    params: Type.Object({ id: Type.String() }),
  });

  it('sends the declared body a caller filled, and none otherwise', () => {
    expect(prepareRequest(remove, { id: 'a', password: 'secret' }).body).toEqual({ password: 'secret' });
    expect(prepareRequest(remove, { id: 'a' }).body).toBeUndefined();
    expect(prepareRequest(plain, { id: 'a', password: 'secret' }).body).toBeUndefined();
  });
});
