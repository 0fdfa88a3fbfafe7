import { customPlans } from '../src/ferretdb';

describe("FerretDB's PostgreSQL URL", () => {
  it('asks PostgreSQL to plan every execution with its values, keeping what the URL had', () => {
    const url = new URL(
      customPlans('postgres://furniture:s3cret@db.example.org:5433/furniture?sslmode=require'),
    );
    expect(url.searchParams.get('plan_cache_mode')).toBe('force_custom_plan');
    expect(url.searchParams.get('sslmode')).toBe('require');
    expect(url.username).toBe('furniture');
    expect(url.password).toBe('s3cret');
    expect(url.host).toBe('db.example.org:5433');
    expect(url.pathname).toBe('/furniture');
  });

  it('replaces a plan_cache_mode an operator set to let PostgreSQL choose generic plans', () => {
    const url = new URL(customPlans('postgres://postgres@127.0.0.1:5432/x?plan_cache_mode=auto'));
    expect(url.searchParams.getAll('plan_cache_mode')).toEqual(['force_custom_plan']);
  });
});
