// Shared test setup. The machines running the suite are busy (two cores,
// builds in parallel): give findBy*/waitFor more than the default 1 s.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });
